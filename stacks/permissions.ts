/**
 * What the API function may do, and nothing more: read and write objects in its two buckets, invoke itself (the
 * background refresh of stale cache entries), and read the one SSM parameter holding the API keys when there is
 * one. X-Ray's write permissions come with `tracing: active`.
 */
import { Arn, ArnFormat, Stack } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { IBucket } from 'aws-cdk-lib/aws-s3';

/**
 * The function's own ARN, built from its fixed name rather than taken from the function: a policy naming
 * `fn.functionArn` would depend on the function, which already depends on its role's policy (a cycle).
 */
export function functionArnByName(stack: Stack, functionName: string): string {
  return stack.formatArn({ service: 'lambda', resource: 'function', resourceName: functionName, arnFormat: ArnFormat.COLON_RESOURCE_NAME });
}

/** The parameter's ARN from a name (`/glance/api-keys` or `glance-api-keys`) or an ARN. */
export function parameterArn(stack: Stack, parameter: string): string {
  if (parameter.startsWith('arn:')) return parameter;
  return stack.formatArn({ service: 'ssm', resource: 'parameter', resourceName: parameter.replace(/^\//, ''), arnFormat: ArnFormat.SLASH_RESOURCE_NAME });
}

export function bucketStatements(buckets: readonly IBucket[]): PolicyStatement[] {
  return [
    // GetObject also authorises HeadObject (IAM has no separate HEAD action).
    new PolicyStatement({ actions: ['s3:GetObject', 's3:PutObject'], resources: buckets.map((bucket) => bucket.arnForObjects('*')) }),
    // Without ListBucket a HEAD of a missing key answers 403 instead of 404, and "not stored yet" and "not cached"
    // would look like access errors.
    new PolicyStatement({ actions: ['s3:ListBucket'], resources: buckets.map((bucket) => bucket.bucketArn) }),
  ];
}

export function selfInvokeStatement(stack: Stack, functionName: string): PolicyStatement {
  return new PolicyStatement({ actions: ['lambda:InvokeFunction'], resources: [functionArnByName(stack, functionName)] });
}

/**
 * ssm:GetParameter on exactly that parameter, and kms:Decrypt only as SSM calls it for that parameter: SSM passes
 * the parameter's ARN as encryption context, so the condition pins the grant to this one value whichever key
 * encrypts it (the default aws/ssm key or a customer managed one).
 */
export function apiKeysStatements(stack: Stack, parameter: string): PolicyStatement[] {
  const arn = parameterArn(stack, parameter);
  const { region, account } = parameter.startsWith('arn:')
    ? Arn.split(arn, ArnFormat.SLASH_RESOURCE_NAME)
    : { region: stack.region, account: stack.account };
  return [
    new PolicyStatement({ actions: ['ssm:GetParameter'], resources: [arn] }),
    new PolicyStatement({
      actions: ['kms:Decrypt'],
      resources: [stack.formatArn({ service: 'kms', region, account, resource: 'key', resourceName: '*', arnFormat: ArnFormat.SLASH_RESOURCE_NAME })],
      conditions: {
        StringEquals: {
          'kms:ViaService': `ssm.${region}.${stack.urlSuffix}`,
          'kms:EncryptionContext:PARAMETER_ARN': arn,
        },
      },
    }),
  ];
}
