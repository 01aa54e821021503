/**
 * The metrics the Lambda handler emits (EMF on stdout → CloudWatch namespace `Glance`, dimension `service`), named
 * once: functions/observability.ts emits them, stacks/monitoring.ts charts and alarms on them.
 */
import type { CacheStatus } from '../lib/cache/index.ts';
import type { Feature } from '../lib/pipeline/features.ts';

export const NAMESPACE = 'Glance';
export const SERVICE = 'glance';

export const METRIC = {
  /** Answers by JSend status, preflights excluded. */
  success: 'success',
  fail: 'fail',
  error: 'error',
  browserLost: 'browser_lost',
  pageCrash: 'page_crash',
  /** A stale-entry refresh that failed on our side: the self-invocation could not be made, or it answered 500/503. */
  refreshError: 'refresh_error',
  /** Powertools' own, with a `function_name` dimension besides `service`. */
  coldStart: 'ColdStart',
} as const;

export const CACHE_STATUSES = ['HIT', 'STALE', 'MISS', 'BYPASS'] as const satisfies readonly CacheStatus[];
export const cacheMetric = (status: CacheStatus): string => `cache_${status.toLowerCase()}`;
export const featureMetric = (feature: Feature): string => `feature_${feature}`;
