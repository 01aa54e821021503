import { Api, type StackContext } from 'sst/constructs';

/** The API: API Gateway HTTP API → one Lambda function running functions/api.ts. */
export function Glance({ stack }: StackContext) {
  const api = new Api(stack, 'Api', {
    defaults: {
      function: {
        runtime: 'nodejs22.x',
        // The request budget is 28 s (CONTRACT §2); the function gets a little more to answer ETIMEOUT itself.
        timeout: 30,
        memorySize: 1024,
        environment: { NODE_OPTIONS: '--enable-source-maps' },
      },
    },
    routes: {
      'GET /': 'functions/api.handler',
      'HEAD /': 'functions/api.handler',
    },
  });
  stack.addOutputs({ ApiEndpoint: api.url });
}
