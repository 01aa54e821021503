/**
 * The optional monthly AWS Budget (GLANCE_BUDGET_USD): the account's costs, not only this stage's (a budget can
 * filter by tag only once the tag is activated for cost allocation, which a stack cannot do), alerting the alarm
 * target when the month's actual spend passes 80 % of it and when AWS forecasts it will pass it. An existing SNS topic
 * (GLANCE_ALARM_TOPIC_ARN) must allow `budgets.amazonaws.com` to publish; an e-mail address needs nothing.
 */
import { Stack } from 'aws-cdk-lib';
import { CfnBudget } from 'aws-cdk-lib/aws-budgets';
import type { Construct } from 'constructs';
import type { AlarmTarget } from './settings.ts';

/** Actual spend past 80 % of the amount, forecast spend past all of it. */
const NOTIFICATIONS: readonly CfnBudget.NotificationProperty[] = [
  { notificationType: 'ACTUAL', comparisonOperator: 'GREATER_THAN', threshold: 80, thresholdType: 'PERCENTAGE' },
  { notificationType: 'FORECASTED', comparisonOperator: 'GREATER_THAN', threshold: 100, thresholdType: 'PERCENTAGE' },
];

export function createBudget(scope: Construct, usd: number, target: AlarmTarget): CfnBudget {
  const subscribers: CfnBudget.SubscriberProperty[] = [
    ...(target.email ? [{ subscriptionType: 'EMAIL', address: target.email }] : []),
    ...(target.topicArn ? [{ subscriptionType: 'SNS', address: target.topicArn }] : []),
  ];
  return new CfnBudget(scope, 'MonthlyBudget', {
    budget: {
      budgetName: `${Stack.of(scope).stackName}-monthly`,
      budgetType: 'COST',
      timeUnit: 'MONTHLY',
      budgetLimit: { amount: usd, unit: 'USD' },
    },
    notificationsWithSubscribers: NOTIFICATIONS.map((notification) => ({ notification, subscribers })),
  });
}
