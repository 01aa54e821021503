/**
 * The secret CloudFront adds to every request it sends the HTTP API, and the function requires
 * (lib/http/origin-guard.ts): requests sent to the API's own execute-api address, around CloudFront and its optional
 * WAF rules, are refused. `disableExecuteApiEndpoint` would need an API Gateway custom domain as CloudFront's
 * origin, which a deployment without a domain of its own does not have. Secrets Manager generates the value at the
 * first deploy and keeps it across deploys; CloudFormation resolves it into both resources (a `secretsmanager`
 * dynamic reference, documented for every resource property), so it is never in the template.
 */
import { RemovalPolicy } from 'aws-cdk-lib';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';

/** The value's dynamic reference, resolved by CloudFormation at deploy. */
export function createOriginSecret(scope: Construct): string {
  const secret = new Secret(scope, 'OriginSecret', {
    description: 'Glance: the header value CloudFront adds to every request to the HTTP API',
    // Letters and digits only: a header value, sent as it is.
    generateSecretString: { excludePunctuation: true, includeSpace: false, passwordLength: 48 },
    // A new one is generated with the next stage: nothing to keep.
    removalPolicy: RemovalPolicy.DESTROY,
  });
  return secret.secretValue.unsafeUnwrap();
}
