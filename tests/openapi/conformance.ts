/**
 * Checks a real answer against docs/openapi.json: the operation must document its status (or a `default`), every
 * required header must be there and every documented header must match its schema, and the body must match the
 * schema of its content type (ajv, JSON Schema 2020-12, the dialect of OpenAPI 3.1), with the document's own
 * components. Each answer checked is counted, so a test can prove every documented status met a real one.
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import document from '../../lib/http/openapi-document.cts';

/** ajv-formats is CommonJS whose default export is `module.exports` itself. */
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

export const DOCUMENT: any = document;

const BASE = 'https://glance.test/openapi.json';
// Not strict: the document holds OpenAPI's own keywords (`paths`, `in`, `required: true`…) around its schemas.
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema({ ...DOCUMENT, $id: BASE });

const escape = (segment: string): string => segment.replaceAll('~', '~0').replaceAll('/', '~1');
const validators = new Map<string, ValidateFunction>();

/** A schema of the document by its JSON pointer, compiled once. */
function validatorAt(pointer: string): ValidateFunction {
  let validate = validators.get(pointer);
  if (!validate) {
    validate = ajv.compile({ $ref: `${BASE}#${pointer}` });
    validators.set(pointer, validate);
  }
  return validate;
}

/** Follows OpenAPI Reference Objects (`#/components/...`) to the object and the pointer it sits at. */
function resolve(value: any, pointer: string): { value: any; pointer: string } {
  while (value && typeof value.$ref === 'string') {
    pointer = value.$ref.slice(1);
    value = pointer.split('/').slice(1).reduce((node: any, key) => node?.[key.replaceAll('~1', '/').replaceAll('~0', '~')], DOCUMENT);
  }
  return { value, pointer };
}

export interface RealAnswer {
  readonly path: string;
  readonly method: string;
  readonly status: number;
  readonly headers: Headers;
  readonly body: string;
}

/** `GET / 200` for every answer checked. */
export const covered = new Set<string>();

/** Every status the document gives an operation: `GET / 200`, `GET /health 503`… */
export function documentedStatuses(): string[] {
  const all: string[] = [];
  for (const [path, item] of Object.entries<any>(DOCUMENT.paths)) {
    for (const method of ['get', 'head', 'options', 'post', 'put', 'delete', 'patch']) {
      const responses = item[method]?.responses ?? {};
      for (const status of Object.keys(responses).filter((key) => /^\d{3}$/.test(key))) all.push(`${method.toUpperCase()} ${path} ${status}`);
    }
  }
  return all;
}

const describeErrors = (validate: ValidateFunction): string =>
  ajv.errorsText(validate.errors, { separator: '; ', dataVar: '' });

/** The key of `content` a type answers under: its own, else its media range (`image/png` under `image/*`), as OpenAPI reads it. */
function documentedType(type: string, content: Record<string, unknown>): string | undefined {
  const range = `${type.split('/')[0]}/*`;
  return type in content ? type : range in content ? range : undefined;
}

/** What does not conform, as sentences; empty when the answer is one the document describes. */
export function problemsOf(answer: RealAnswer): string[] {
  const { path, method, status } = answer;
  const where = `${method} ${path} ${status}`;
  const operationPointer = `/paths/${escape(path)}/${method.toLowerCase()}`;
  const operation = resolve(DOCUMENT.paths?.[path]?.[method.toLowerCase()], operationPointer).value;
  if (!operation) return [`${method} ${path} is not documented`];
  const key = String(status) in operation.responses ? String(status) : 'default';
  const { value: response, pointer } = resolve(operation.responses[key], `${operationPointer}/responses/${key}`);
  if (!response) return [`${where}: the status is not documented`];
  covered.add(where);
  const problems: string[] = [];

  for (const [name, header] of Object.entries<any>(response.headers ?? {})) {
    const { value: object, pointer: at } = resolve(header, `${pointer}/headers/${escape(name)}`);
    const value = answer.headers.get(name);
    if (value === null) {
      if (object.required) problems.push(`${where}: the required header ${name} is missing`);
      continue;
    }
    const validate = validatorAt(`${at}/schema`);
    if (!validate(value)) problems.push(`${where}: header ${name}: ${JSON.stringify(value)} ${describeErrors(validate)}`);
  }

  const answered = answer.headers.get('content-type')?.split(';')[0]?.trim();
  if (!response.content) {
    if (answer.body !== '') problems.push(`${where}: documented without a body, answered ${answer.body.length} characters`);
    return problems;
  }
  const type = answered && documentedType(answered, response.content);
  if (!type) {
    return [...problems, `${where}: content type ${answered} is not documented (${Object.keys(response.content).join(', ')})`];
  }
  let body: unknown = answer.body;
  if (type === 'application/json') {
    try {
      body = JSON.parse(answer.body);
    } catch {
      return [...problems, `${where}: the body is not JSON`];
    }
  }
  const validate = validatorAt(`${pointer}/content/${escape(type)}/schema`);
  if (!validate(body)) problems.push(`${where}: body ${describeErrors(validate)}`);
  return problems;
}

/** A fetch Response as a RealAnswer (its body read). */
export async function realAnswer(path: string, method: string, response: Response): Promise<RealAnswer> {
  return { path, method, status: response.status, headers: response.headers, body: await response.text() };
}
