/**
 * Powertools logger, metrics and tracer: created once per module (cold start) and injected through middy.
 * Outside Lambda the tracer switches itself off (it checks AWS_EXECUTION_ENV), so nothing here calls AWS.
 */
import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics } from '@aws-lambda-powertools/metrics';
import { Tracer } from '@aws-lambda-powertools/tracer';

const serviceName = 'glance';

export const logger = new Logger({ serviceName });
export const metrics = new Metrics({ serviceName, namespace: 'Glance' });
export const tracer = new Tracer({ serviceName, captureHTTPsRequests: false });
