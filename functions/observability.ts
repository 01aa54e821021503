/**
 * Powertools logger, metrics and tracer: created once per module (cold start) and injected through middy.
 * Nothing here calls AWS outside Lambda.
 */
import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics } from '@aws-lambda-powertools/metrics';
import type { Tracer } from '@aws-lambda-powertools/tracer';

const serviceName = 'glance';

export const logger = new Logger({ serviceName });
export const metrics = new Metrics({ serviceName, namespace: 'Glance' });

/**
 * Only in Lambda, where X-Ray receives the traces. Elsewhere the tracer would switch itself off anyway (it reads
 * the same variable), and the X-Ray SDK it loads installs async hooks that slow every promise of the process
 * (cache hits on the local service ran ~40 % slower with it loaded; bench/cache).
 */
export const tracer: Tracer | undefined = process.env.AWS_EXECUTION_ENV?.startsWith('AWS_Lambda_')
  ? new (await import('@aws-lambda-powertools/tracer')).Tracer({ serviceName, captureHTTPsRequests: false })
  : undefined;
