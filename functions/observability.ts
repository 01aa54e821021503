/**
 * Powertools logger, metrics and tracer: created once per module (cold start) and injected through middy; and the
 * core's events (lib/app.ts AppEvents) turned into metrics, so lib/ never imports Powertools.
 * Nothing here calls AWS outside Lambda.
 */
import { Logger } from '@aws-lambda-powertools/logger';
import { MetricUnit, Metrics } from '@aws-lambda-powertools/metrics';
import type { Tracer } from '@aws-lambda-powertools/tracer';
import type { AppEvents } from '../lib/app.ts';
import { cacheMetric, featureMetric, METRIC, NAMESPACE, SERVICE } from './metric-names.ts';

export const logger = new Logger({ serviceName: SERVICE });
export const metrics = new Metrics({ serviceName: SERVICE, namespace: NAMESPACE });

/**
 * Only in Lambda, where X-Ray receives the traces. Elsewhere the tracer would switch itself off anyway (it reads
 * the same variable), and the X-Ray SDK it loads installs async hooks that slow every promise of the process
 * (cache hits on the local service ran ~40 % slower with it loaded; bench/cache).
 */
export const tracer: Tracer | undefined = process.env.AWS_EXECUTION_ENV?.startsWith('AWS_Lambda_')
  ? new (await import('@aws-lambda-powertools/tracer')).Tracer({ serviceName: SERVICE, captureHTTPsRequests: false })
  : undefined;

export const count = (name: string): void => {
  metrics.addMetric(name, MetricUnit.Count, 1);
};

/** Metrics from the core's events; published with the invocation's other metrics. */
export const metricEvents = (): AppEvents => ({
  answered: ({ cache, features }) => {
    count(cacheMetric(cache));
    for (const feature of features) count(featureMetric(feature));
  },
  browserLost: () => count(METRIC.browserLost),
  pageCrashed: () => count(METRIC.pageCrash),
});
