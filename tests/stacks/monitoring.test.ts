/**
 * Alarm routing on a bare CDK stack (no SST synth): an existing SNS topic, which the synthesised stages do not use;
 * the warning a stage without any target gets; the optional monthly budget.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { App, Stack } from 'aws-cdk-lib';
import { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import { Code, Function as LambdaFunction, Runtime } from 'aws-cdk-lib/aws-lambda';
import { createBudget } from '../../stacks/budget.ts';
import { createMonitoring, describeTarget, NOBODY, warnIfNobodyListens } from '../../stacks/monitoring.ts';
import type { AlarmTarget } from '../../stacks/settings.ts';
import { ACCOUNT, REGION } from './synth.ts';
import { render, resources } from './template.ts';

const TOPIC = `arn:aws:sns:${REGION}:${ACCOUNT}:ops-alerts`;

function monitored(target: AlarmTarget): Template {
  const stack = new Stack(new App(), 'Monitored', { env: { account: ACCOUNT, region: REGION } });
  const fn = new LambdaFunction(stack, 'Fn', { runtime: Runtime.NODEJS_22_X, handler: 'index.handler', code: Code.fromInline('export const handler = () => {}') });
  createMonitoring(stack, { fn, functionName: 'fn', httpApi: new HttpApi(stack, 'Api'), target, reservedConcurrency: undefined });
  return Template.fromStack(stack);
}

test('an existing topic receives every alarm and recovery; no topic is created for it', () => {
  const template = monitored({ email: undefined, topicArn: TOPIC });
  template.resourceCountIs('AWS::SNS::Topic', 0);
  template.resourceCountIs('AWS::SNS::Subscription', 0);
  const alarms = Object.values(resources(template, 'AWS::CloudWatch::Alarm'));
  assert.equal(alarms.length, 5);
  for (const alarm of alarms) {
    assert.deepEqual(alarm.Properties.AlarmActions.map(render), [TOPIC]);
    assert.deepEqual(alarm.Properties.OKActions.map(render), [TOPIC]);
  }
});

test('with an e-mail address too, the address is subscribed to that existing topic', () => {
  const template = monitored({ email: 'ops@example.com', topicArn: TOPIC });
  template.resourceCountIs('AWS::SNS::Topic', 0);
  const [subscription] = Object.values(resources(template, 'AWS::SNS::Subscription'));
  assert.equal(render(subscription!.Properties.TopicArn), TOPIC);
  assert.equal(subscription!.Properties.Endpoint, 'ops@example.com');
});

test('a stage whose alarms notify nobody says so at synth, as a CDK warning; one with a target does not', (t) => {
  const warned = (target: AlarmTarget) => {
    const stack = new Stack(new App(), 'Warned', { env: { account: ACCOUNT, region: REGION } });
    t.mock.method(console, 'warn', () => undefined);
    warnIfNobodyListens(stack, target);
    return Annotations.fromStack(stack).findWarning('*', Match.stringLikeRegexp('notify NOBODY.*GLANCE_ALARM_EMAIL'));
  };
  assert.equal(warned({ email: undefined, topicArn: undefined }).length, 1);
  assert.equal(warned({ email: 'ops@example.com', topicArn: undefined }).length, 0);
  assert.equal(describeTarget({ email: undefined, topicArn: undefined }), NOBODY);
  assert.equal(describeTarget({ email: 'ops@example.com', topicArn: TOPIC }), `ops@example.com, ${TOPIC}`);
});

test('the monthly budget alerts the e-mail address and the topic at 80 % actual and 100 % forecast spend', () => {
  const stack = new Stack(new App(), 'Budgeted', { env: { account: ACCOUNT, region: REGION } });
  createBudget(stack, 50, { email: 'ops@example.com', topicArn: TOPIC });
  const [budget] = Object.values(resources(Template.fromStack(stack), 'AWS::Budgets::Budget'));
  assert.deepEqual(budget!.Properties.Budget, {
    BudgetName: 'Budgeted-monthly',
    BudgetType: 'COST',
    TimeUnit: 'MONTHLY',
    BudgetLimit: { Amount: 50, Unit: 'USD' },
  });
  const notifications = budget!.Properties.NotificationsWithSubscribers;
  assert.deepEqual(notifications.map((n: any) => [n.Notification.NotificationType, n.Notification.Threshold]), [['ACTUAL', 80], ['FORECASTED', 100]]);
  for (const n of notifications) {
    assert.deepEqual(n.Subscribers, [{ SubscriptionType: 'EMAIL', Address: 'ops@example.com' }, { SubscriptionType: 'SNS', Address: TOPIC }]);
  }
});
