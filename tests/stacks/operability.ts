/**
 * Operability, checked on the synthesised templates deploy.test.ts registers these with: `prod` with every
 * default (no alarm target, 30-day logs), `dev` with an alarm e-mail and 7-day logs.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { FEATURES } from '../../lib/pipeline/features.ts';
import { CACHE_STATUSES, cacheMetric, featureMetric, METRIC, NAMESPACE, SERVICE } from '../../functions/metric-names.ts';
import { NOBODY, THRESHOLDS } from '../../stacks/monitoring.ts';
import type { Synthesized } from './synth.ts';
import { render, resource, resources, type Resource } from './template.ts';

interface Stages {
  readonly prod: Synthesized;
  readonly dev: Synthesized;
}

const alarmsOf = (s: Synthesized): Record<string, Resource['Properties']> =>
  Object.fromEntries(Object.entries(resources(s.template, 'AWS::CloudWatch::Alarm')).map(([id, alarm]) => [id.replace(/Alarm[0-9A-F]{8}$/, ''), alarm.Properties]));

const dimensionsOf = (props: Resource['Properties']): Record<string, string> =>
  Object.fromEntries((props.Dimensions ?? []).map((d: { Name: string; Value: unknown }) => [d.Name, render(d.Value)]));

export function describeOperability(stages: () => Stages): void {
  describe('operability', () => {
    test('five alarms: 5xx rate, throttles, duration p99, browsers lost, refresh errors', () => {
      const { prod } = stages();
      const fnId = resource(prod.template, 'AWS::Lambda::Function', 'ApiFunction')[0];
      const apiId = resource(prod.template, 'AWS::ApiGatewayV2::Api', 'Api')[0];
      const alarms = alarmsOf(prod);
      assert.deepEqual(Object.keys(alarms).sort(), ['BrowserLost', 'DurationP99', 'RefreshErrors', 'ServerErrorRate', 'Throttles']);
      for (const alarm of Object.values(alarms)) {
        assert.equal(alarm.TreatMissingData, 'notBreaching', 'no traffic is not an incident');
        assert.equal(alarm.ComparisonOperator, 'GreaterThanOrEqualToThreshold');
      }

      const rate = alarms.ServerErrorRate!;
      assert.equal(rate.Threshold, THRESHOLDS.serverErrorPercent);
      const expression = rate.Metrics.find((m: { Expression?: string }) => m.Expression);
      assert.match(expression.Expression, /100 \* errors \/ requests/);
      const inputs = Object.fromEntries(rate.Metrics.filter((m: { MetricStat?: unknown }) => m.MetricStat).map((m: any) => [m.Id, m.MetricStat.Metric]));
      assert.equal(inputs.errors.MetricName, '5xx');
      assert.equal(inputs.requests.MetricName, 'Count');
      for (const input of [inputs.errors, inputs.requests]) {
        assert.equal(input.Namespace, 'AWS/ApiGateway');
        assert.equal(render(input.Dimensions[0].Value), `<${apiId}>`);
      }

      const lambda = (props: Resource['Properties'], metric: string) => {
        assert.equal(props.Namespace, 'AWS/Lambda');
        assert.equal(props.MetricName, metric);
        assert.deepEqual(dimensionsOf(props), { FunctionName: `<${fnId}>` });
      };
      lambda(alarms.Throttles!, 'Throttles');
      assert.equal(alarms.Throttles!.Threshold, 1);
      lambda(alarms.DurationP99!, 'Duration');
      assert.equal(alarms.DurationP99!.ExtendedStatistic, 'p99');
      assert.ok(alarms.DurationP99!.Threshold < 28_000, 'below the request budget, so it fires before answers time out');

      for (const [id, metric] of [['BrowserLost', METRIC.browserLost], ['RefreshErrors', METRIC.refreshError]] as const) {
        const alarm = alarms[id]!;
        assert.equal(alarm.Namespace, NAMESPACE, id);
        assert.equal(alarm.MetricName, metric, id);
        assert.deepEqual(dimensionsOf(alarm), { service: SERVICE }, `${id}: the dimensions Powertools emits with`);
        assert.equal(alarm.Statistic, 'Sum', id);
      }
    });

    test('alarms notify nobody unless asked, and the AlarmTarget output says so; GLANCE_ALARM_EMAIL subscribes to a topic every alarm and recovery goes to', () => {
      const { prod, dev } = stages();
      assert.equal(prod.template.toJSON().Outputs.AlarmTarget.Value, NOBODY);
      assert.equal(dev.template.toJSON().Outputs.AlarmTarget.Value, 'ops@example.com');
      prod.template.resourceCountIs('AWS::SNS::Topic', 0);
      for (const alarm of Object.values(alarmsOf(prod))) assert.equal(alarm.AlarmActions, undefined);

      const [topicId] = resource(dev.template, 'AWS::SNS::Topic', 'AlarmTopic');
      const [, subscription] = resource(dev.template, 'AWS::SNS::Subscription', 'AlarmTopic');
      assert.equal(subscription.Properties.Protocol, 'email');
      assert.equal(subscription.Properties.Endpoint, 'ops@example.com');
      for (const alarm of Object.values(alarmsOf(dev))) {
        assert.deepEqual(alarm.AlarmActions.map(render), [`<${topicId}>`]);
        assert.deepEqual(alarm.OKActions.map(render), [`<${topicId}>`]);
      }
    });

    test('a dashboard charts the API, the function, cold starts and every metric the handler emits', () => {
      const { prod } = stages();
      const [dashboardId, dashboard] = resource(prod.template, 'AWS::CloudWatch::Dashboard', 'Dashboard');
      const body = JSON.parse(render(dashboard.Properties.DashboardBody)) as { widgets: Array<{ type: string; properties: { metrics?: unknown[][] } }> };
      const charted = new Set(body.widgets.flatMap((widget) => (widget.properties.metrics ?? []).map((metric) => `${metric[0]}/${metric[1]}`)));
      const glance = [
        ...Object.values(METRIC),
        ...CACHE_STATUSES.map(cacheMetric),
        ...FEATURES.map(featureMetric),
      ];
      for (const name of glance) assert.ok(charted.has(`${NAMESPACE}/${name}`), `${name} charted`);
      for (const name of ['Duration', 'Throttles', 'ConcurrentExecutions', 'Errors', 'AsyncEventsDropped']) assert.ok(charted.has(`AWS/Lambda/${name}`), name);
      for (const name of ['Count', '5xx']) assert.ok(charted.has(`AWS/ApiGateway/${name}`), name);
      assert.ok(body.widgets.some((widget) => widget.type === 'alarm'), 'with the alarms\' state');
      assert.equal(dashboard.Properties.DashboardName, 'prod-glance-Glance-glance');
      // Ref of a dashboard is its name.
      assert.equal(
        render(prod.template.toJSON().Outputs.DashboardUrl.Value),
        `https://us-east-1.console.aws.amazon.com/cloudwatch/home?region=us-east-1#dashboards:name=<${dashboardId}>`,
      );
    });

    test('every log group forgets: 30 days by default, GLANCE_LOG_RETENTION_DAYS when set; every function logs to one of them', () => {
      for (const [s, days] of [[stages().prod, 30], [stages().dev, 7]] as const) {
        const groups = resources(s.template, 'AWS::Logs::LogGroup');
        for (const [id, group] of Object.entries(groups)) assert.equal(group.Properties.RetentionInDays, days, id);
        const functions = Object.entries(resources(s.template, 'AWS::Lambda::Function'));
        assert.ok(functions.length >= 2, 'the API function and the helpers CDK and SST add (bucket auto-delete, custom resources)');
        for (const [id, fn] of functions) {
          const target = render(fn.Properties.LoggingConfig?.LogGroup ?? '').replace(/^<(.*)>$/, '$1');
          assert.ok(groups[target], `${id} logs to a group of the stack, not one Lambda creates and keeps forever`);
        }
        s.template.resourceCountIs('Custom::LogRetention', 0);
      }
      const [accessLogId] = resource(stages().prod.template, 'AWS::Logs::LogGroup', 'ApiLogGroup');
      const stage = resource(stages().prod.template, 'AWS::ApiGatewayV2::Stage', 'ApiDefaultStage')[1];
      assert.equal(render(stage.Properties.AccessLogSettings.DestinationArn), `<${accessLogId}.Arn>`, 'the access log among them');
    });

    test('the stale-entry self-invocation is tried once and dropped after a minute', () => {
      const { prod } = stages();
      const fnId = resource(prod.template, 'AWS::Lambda::Function', 'ApiFunction')[0];
      const [, config] = resource(prod.template, 'AWS::Lambda::EventInvokeConfig', 'ApiFunction');
      assert.equal(render(config.Properties.FunctionName), `<${fnId}>`);
      assert.equal(config.Properties.MaximumRetryAttempts, 0);
      assert.equal(config.Properties.MaximumEventAgeInSeconds, 60);
    });
  });
}
