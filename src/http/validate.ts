/**
 * ajv validators compiled once at start. Query strings and path params are coerced
 * (`?page=2` is a number), bodies are not: a string where a number belongs is a 400.
 */
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { invalid } from '../domain/errors';
import type { JsonSchema } from './route';

const bodyAjv = new Ajv({ allErrors: false, strict: true, useDefaults: false });
const paramAjv = new Ajv({ allErrors: false, strict: true, coerceTypes: true, useDefaults: true });
addFormats(bodyAjv);
addFormats(paramAjv);
for (const ajv of [bodyAjv, paramAjv]) ajv.addKeyword('x-secret');

export type Validator = (value: unknown) => unknown;

function describe(location: string, error: ErrorObject): string {
  const path = error.instancePath
    .split('/')
    .filter(Boolean)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .join('.');
  const at = [location, path].filter(Boolean).join('.');
  switch (error.keyword) {
    case 'additionalProperties':
      return `${at}.${(error.params as { additionalProperty: string }).additionalProperty}: unknown field`;
    case 'required':
      return `${at}.${(error.params as { missingProperty: string }).missingProperty}: is required`;
    case 'enum':
      return `${at}: must be one of ${(error.params as { allowedValues: unknown[] }).allowedValues.map(String).join(', ')}`;
    default:
      return `${at}: ${error.message ?? 'is invalid'}`;
  }
}

export function compileValidator(location: 'body' | 'query' | 'params', schema: JsonSchema): Validator {
  const fn: ValidateFunction = (location === 'body' ? bodyAjv : paramAjv).compile(schema);
  return (value) => {
    if (fn(value)) return value;
    const detail = describe(location, fn.errors![0]!);
    throw invalid(`Invalid ${location === 'params' ? 'path parameter' : location}`, detail);
  };
}
