/** Alarm routing on a bare CDK stack (no SST synth): an existing SNS topic, which the synthesised stages do not use. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { App, Stack } from 'aws-cdk-lib';
import { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { Template } from 'aws-cdk-lib/assertions';
import { Code, Function as LambdaFunction, Runtime } from 'aws-cdk-lib/aws-lambda';
import { createMonitoring } from '../../stacks/monitoring.ts';
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
