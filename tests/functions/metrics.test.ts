/** The Lambda handler's metrics from the core's events: the names stacks/monitoring.ts charts and alarms on. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { METRIC, NAMESPACE } from '../../functions/metric-names.ts';
import { metricEvents, metrics } from '../../functions/observability.ts';

/** The EMF blob the invocation would print: metric name → value. */
function emitted(): Record<string, unknown> {
  const blob = metrics.serializeMetrics() as unknown as Record<string, unknown> & { _aws: { CloudWatchMetrics: Array<{ Namespace: string; Metrics: Array<{ Name: string }> }> } };
  metrics.clearMetrics();
  const [directive] = blob._aws.CloudWatchMetrics;
  assert.equal(directive?.Namespace, NAMESPACE);
  return Object.fromEntries(directive!.Metrics.map(({ Name }) => [Name, blob[Name]]));
}

test('an answer counts its cache status and each feature; browser events count as browser_lost and page_crash', () => {
  const events = metricEvents();
  events.answered?.({ cache: 'STALE', features: ['screenshot', 'palette'] });
  events.browserLost?.();
  events.pageCrashed?.();
  assert.deepEqual(emitted(), { cache_stale: 1, feature_screenshot: 1, feature_palette: 1, [METRIC.browserLost]: 1, [METRIC.pageCrash]: 1 });
});
