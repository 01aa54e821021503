/**
 * Every log group of the stack forgets after the retention (GLANCE_LOG_RETENTION_DAYS). Lambda creates a
 * function's group on its first log line, kept forever and outside the stack; so every Lambda function here (the
 * API's and the ones CDK and SST add for themselves: custom resource handlers, the error-page upload, bucket
 * auto-delete) logs to a group the stack creates instead, and every group the stack creates (API Gateway's access
 * log included) gets the retention. An aspect sees each resource whichever construct made it.
 */
import { Aspects, CfnResource, RemovalPolicy, type IAspect } from 'aws-cdk-lib';
import { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import { CfnLogGroup, LogGroup } from 'aws-cdk-lib/aws-logs';
import type { Construct, IConstruct } from 'constructs';
import type { LogRetentionDays } from './settings.ts';

class Retention implements IAspect {
  readonly #days: LogRetentionDays;

  constructor(days: LogRetentionDays) {
    this.#days = days;
  }

  visit(node: IConstruct): void {
    if (node instanceof CfnLogGroup) {
      node.retentionInDays ??= this.#days;
      return;
    }
    if (!(node instanceof CfnResource) || node.cfnResourceType !== 'AWS::Lambda::Function') return;
    if (node instanceof CfnFunction && node.loggingConfig) return;
    const scope = node.node.scope as Construct;
    const id = `${node.node.id}Logs`;
    // Aspects may visit a node more than once.
    if (scope.node.tryFindChild(id)) return;
    // Operational logs within their retention, nothing to keep once the stage is removed.
    const group = new LogGroup(scope, id, { retention: this.#days, removalPolicy: RemovalPolicy.DESTROY });
    // A plain CfnResource (CDK's own custom-resource providers) has no typed property to set.
    node.addPropertyOverride('LoggingConfig.LogGroup', group.logGroupName);
  }
}

export function retainLogs(scope: Construct, days: LogRetentionDays): void {
  Aspects.of(scope).add(new Retention(days));
}
