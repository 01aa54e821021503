/** The Lambda handler's metrics from the core's events: the names stacks/monitoring.ts charts and alarms on. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Context } from 'aws-lambda';
import { createHandler } from '../../functions/api.ts';
import { METRIC, NAMESPACE } from '../../functions/metric-names.ts';
import { metricEvents, metrics } from '../../functions/observability.ts';
import { loadConfig } from '../../lib/config.ts';

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

test('a refresh self-invocation counts refresh_error when it fails on our side, not when the target fails', async (t) => {
  const added = t.mock.method(metrics, 'addMetric');
  let answer: () => Promise<{ statusCode: number }> = async () => ({ statusCode: 500 });
  const app = { handle: async () => ({ ...(await answer()), headers: {}, body: '' }), prepare: async () => undefined, loadAdblockEngine: async () => undefined, warmBrowser: async () => undefined, close: async () => undefined };
  const handler = createHandler(loadConfig({}), { app });
  const refresh = { glanceRefresh: { v: 1 as const, rawQueryString: 'url=https%3A%2F%2Fexample.com', headers: {} } };
  const context = { awsRequestId: 'refresh-1', getRemainingTimeInMillis: () => 60_000 } as unknown as Context;
  const counted = () => added.mock.calls.filter((call) => call.arguments[0] === METRIC.refreshError).length;

  for (const [statusCode, expected] of [[500, 1], [503, 2], [502, 2], [504, 2], [200, 2]] as const) {
    answer = async () => ({ statusCode });
    assert.equal((await handler(refresh, context)).statusCode, statusCode);
    assert.equal(counted(), expected, `after a ${statusCode}`);
  }
  answer = async () => {
    throw new Error('boom');
  };
  await assert.rejects(handler(refresh, context), /boom/);
  assert.equal(counted(), 3, 'a refresh that throws is counted too');
});
