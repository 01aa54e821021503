/**
 * What an operator watches: CloudWatch alarms on what callers feel (5xx rate, throttled invocations, slow answers)
 * and on what breaks inside (browsers lost under a render, failed stale-entry refreshes), sent to an SNS topic
 * when one is configured (GLANCE_ALARM_EMAIL, GLANCE_ALARM_TOPIC_ARN), and one dashboard. Glance's own metrics
 * are the handler's EMF output (functions/metric-names.ts), in the stack's region like the function.
 */
import { Annotations, Duration, Stack } from 'aws-cdk-lib';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import {
  Alarm,
  AlarmStatusWidget,
  ComparisonOperator,
  Dashboard,
  GraphWidget,
  MathExpression,
  Metric,
  TreatMissingData,
  type IMetric,
} from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Topic, type ITopic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import type { Construct } from 'constructs';
import { FEATURES } from '../lib/pipeline/features.ts';
import { CACHE_STATUSES, cacheMetric, featureMetric, METRIC, NAMESPACE, SERVICE } from '../functions/metric-names.ts';
import type { AlarmTarget } from './settings.ts';

const PERIOD = Duration.minutes(5);

/** Thresholds, each with its reason. */
export const THRESHOLDS = {
  /** Percent of API answers that are 5xx. Target failures (EFETCH, timeouts) are 5xx too, so a few percent is
   *  normal on a busy API; a tenth means something of ours is broken or saturated. */
  serverErrorPercent: 10,
  /** Lambda throttles in 5 minutes: any means callers got API Gateway's 5xx because reserved concurrency ran out. */
  throttles: 1,
  /** p99 of the function's duration, ms: the request budget is 28 s; a p99 near it means answers hit ETIMEOUT. */
  durationP99Ms: 25_000,
  /** Browsers lost under renders in 5 minutes: one is a recycled wedge, several a crash loop. */
  browserLost: 3,
  /** Failed refreshes in 5 minutes: a handful means stale entries stay stale. */
  refreshErrors: 3,
} as const;

export interface MonitoringProps {
  readonly fn: IFunction;
  readonly functionName: string;
  readonly httpApi: HttpApi;
  readonly target: AlarmTarget;
  /** The reserved concurrency, drawn on the concurrency graph when set. */
  readonly reservedConcurrency: number | undefined;
}

/** One of the handler's metrics. A label (for charts) would make an alarm on it a metric-math alarm. */
const glance = (metricName: string, label?: string): Metric =>
  new Metric({ namespace: NAMESPACE, metricName, dimensionsMap: { service: SERVICE }, statistic: 'Sum', period: PERIOD, ...(label ? { label } : {}) });

/** Where the alarms go, as the `AlarmTarget` output says it (and `npm run smoke` reads it). */
export const NOBODY = 'nobody: set GLANCE_ALARM_EMAIL or GLANCE_ALARM_TOPIC_ARN';

export const describeTarget = (target: AlarmTarget): string =>
  [target.email, target.topicArn].filter(Boolean).join(', ') || NOBODY;

/** A stage whose alarms notify nobody says so where the deployer looks: the synth's output and CDK's warnings. */
export function warnIfNobodyListens(scope: Construct, target: AlarmTarget): void {
  if (target.email || target.topicArn) return;
  const message = `Glance's alarms notify NOBODY on ${Stack.of(scope).stackName}: set GLANCE_ALARM_EMAIL (or GLANCE_ALARM_TOPIC_ARN) and deploy again`;
  Annotations.of(scope).addWarningV2('glance:alarms-notify-nobody', message);
  console.warn(`\n!!! ${message} !!!\n`);
}

function alarmTopic(scope: Construct, target: AlarmTarget): ITopic | undefined {
  const topic = target.topicArn
    ? Topic.fromTopicArn(scope, 'AlarmTopic', target.topicArn)
    : target.email
      ? new Topic(scope, 'AlarmTopic', { displayName: `${Stack.of(scope).stackName} alarms` })
      : undefined;
  if (topic && target.email) topic.addSubscription(new EmailSubscription(target.email));
  return topic;
}

export function createMonitoring(scope: Construct, { fn, functionName, httpApi, target, reservedConcurrency }: MonitoringProps): Dashboard {
  const stackName = Stack.of(scope).stackName;
  const requests = httpApi.metricCount({ period: PERIOD, statistic: 'Sum' });
  const serverErrors = httpApi.metricServerError({ period: PERIOD, statistic: 'Sum' });
  const errorRate = new MathExpression({
    expression: 'IF(requests > 0, 100 * errors / requests, 0)',
    usingMetrics: { requests, errors: serverErrors },
    period: PERIOD,
    label: '5xx %',
  });
  const throttles = fn.metricThrottles({ period: PERIOD, statistic: 'Sum' });
  const p99 = fn.metricDuration({ period: PERIOD, statistic: 'p99' });
  const browserLost = glance(METRIC.browserLost);
  const refreshErrors = glance(METRIC.refreshError);

  const alarm = (id: string, metric: IMetric, threshold: number, description: string, periods = 1) =>
    new Alarm(scope, id, {
      alarmName: `${stackName}-${id}`,
      alarmDescription: description,
      metric,
      threshold,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: periods,
      datapointsToAlarm: periods,
      // No traffic is not an incident.
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
  const alarms = [
    alarm('ServerErrorRateAlarm', errorRate, THRESHOLDS.serverErrorPercent, `At least ${THRESHOLDS.serverErrorPercent} % of API answers were 5xx for 15 minutes`, 3),
    alarm('ThrottlesAlarm', throttles, THRESHOLDS.throttles, 'The function hit its reserved concurrency: callers got 5xx from API Gateway'),
    alarm('DurationP99Alarm', p99, THRESHOLDS.durationP99Ms, `p99 duration at least ${THRESHOLDS.durationP99Ms} ms for 15 minutes: answers are timing out`, 3),
    alarm('BrowserLostAlarm', browserLost, THRESHOLDS.browserLost, 'Chromium crashed, was killed or wedged under renders (browser_lost)'),
    alarm('RefreshErrorsAlarm', refreshErrors, THRESHOLDS.refreshErrors, 'Stale-entry refreshes failed on our side (refresh_error)'),
  ];
  const topic = alarmTopic(scope, target);
  if (topic) {
    for (const each of alarms) {
      each.addAlarmAction(new SnsAction(topic));
      each.addOkAction(new SnsAction(topic));
    }
  }

  const dashboard = new Dashboard(scope, 'Dashboard', { dashboardName: `${stackName}-glance`.replace(/[^\w-]/g, '-') });
  const graph = (title: string, left: IMetric[], extra: Partial<ConstructorParameters<typeof GraphWidget>[0]> = {}) =>
    new GraphWidget({ title, left, width: 8, height: 6, ...extra });
  dashboard.addWidgets(new AlarmStatusWidget({ title: 'Alarms', alarms, width: 24, height: 3 }));
  dashboard.addWidgets(
    graph('API requests and 5xx', [requests, serverErrors], { right: [errorRate] }),
    graph('Duration (ms)', ['p50', 'p90', 'p99'].map((statistic) => fn.metricDuration({ period: PERIOD, statistic, label: statistic }))),
    graph('Concurrency and throttles', [fn.metric('ConcurrentExecutions', { period: PERIOD, statistic: 'Maximum' })], {
      right: [throttles],
      ...(reservedConcurrency ? { leftAnnotations: [{ value: reservedConcurrency, label: 'reserved' }] } : {}),
    }),
  );
  dashboard.addWidgets(
    graph('Answers', [METRIC.success, METRIC.fail, METRIC.error].map((name) => glance(name))),
    graph('Cache', CACHE_STATUSES.map((status) => glance(cacheMetric(status), status))),
    graph('Features', FEATURES.map((feature) => glance(featureMetric(feature), feature))),
  );
  dashboard.addWidgets(
    graph('Browser', [browserLost, glance(METRIC.pageCrash)]),
    graph('Cold starts and refresh errors', [
      new Metric({ namespace: NAMESPACE, metricName: METRIC.coldStart, dimensionsMap: { service: SERVICE, function_name: functionName }, statistic: 'Sum', period: PERIOD }),
      refreshErrors,
    ]),
    graph('Lambda errors and dropped refreshes', [fn.metricErrors({ period: PERIOD }), fn.metric('AsyncEventsDropped', { period: PERIOD, statistic: 'Sum' })]),
  );
  return dashboard;
}
