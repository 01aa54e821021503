/**
 * Reading a synthesised CloudFormation template in tests: intrinsic functions rendered to readable strings
 * (`<Logical.Attr>` for GetAtt, `<Logical>` for Ref, pseudo parameters filled in), and lookups by type.
 */
import type { Template } from 'aws-cdk-lib/assertions';
import { ACCOUNT, REGION } from './synth.ts';

const PSEUDO: Record<string, string> = {
  'AWS::Partition': 'aws',
  'AWS::Region': REGION,
  'AWS::AccountId': ACCOUNT,
  'AWS::URLSuffix': 'amazonaws.com',
};

/** A template value as the string it will become: `{Fn::Join: ['', [{Ref: 'X'}, '/*']]}` → `<X>/*`. */
export function render(value: unknown): string {
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value && typeof value === 'object') {
    const node = value as Record<string, unknown>;
    if (typeof node.Ref === 'string') return PSEUDO[node.Ref] ?? `<${node.Ref}>`;
    if (Array.isArray(node['Fn::GetAtt'])) return `<${(node['Fn::GetAtt'] as string[]).join('.')}>`;
    if (Array.isArray(node['Fn::Join'])) {
      const [separator, parts] = node['Fn::Join'] as [string, unknown[]];
      return parts.map(render).join(separator);
    }
  }
  throw new Error(`cannot render ${JSON.stringify(value)}`);
}

export interface Resource {
  readonly Type: string;
  /** `any`: each resource type has its own shape, and the tests read them as plain JSON. */
  readonly Properties: Record<string, any>;
  readonly DeletionPolicy?: string;
}

/** The resources of a type, by logical id. */
export const resources = (template: Template, type: string): Record<string, Resource> => template.findResources(type) as Record<string, Resource>;

/** The one resource of a type whose logical id starts with `prefix` (ids end in a hash). */
export function resource(template: Template, type: string, prefix: string): [string, Resource] {
  const found = Object.entries(resources(template, type)).filter(([id]) => id.startsWith(prefix));
  if (found.length !== 1) throw new Error(`expected one ${type} named ${prefix}*, found ${found.map(([id]) => id).join(', ') || 'none'}`);
  return found[0]!;
}

export interface Statement {
  readonly Effect: string;
  readonly Action: string | string[];
  readonly Resource: unknown;
  readonly Principal?: unknown;
  readonly Condition?: Record<string, Record<string, unknown>>;
}

export const list = <T>(value: T | T[] | undefined): T[] => (value === undefined ? [] : Array.isArray(value) ? value : [value]);

/** Every statement of the IAM policies attached to a role (by the role's logical id). */
export function roleStatements(template: Template, roleId: string): Statement[] {
  return Object.values(resources(template, 'AWS::IAM::Policy'))
    .filter((policy) => list(policy.Properties.Roles).some((role) => render(role) === `<${roleId}>`))
    .flatMap((policy) => policy.Properties.PolicyDocument.Statement as Statement[]);
}
