/**
 * ajv validators compiled once at start. Query strings and path params are coerced
 * (`?page=2` is a number), bodies are not: a string where a number belongs is a 400.
 */
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { fullFormats } from 'ajv-formats/dist/formats';
import { invalid } from '../domain/errors';
import { CANONICAL_UUID, checkFinite, checkStrings } from '../domain/inputHygiene';
import type { JsonSchema } from './route';

const bodyAjv = new Ajv({ allErrors: false, strict: true, useDefaults: false });
const paramAjv = new Ajv({ allErrors: false, strict: true, coerceTypes: true, useDefaults: true });
addFormats(bodyAjv);
addFormats(paramAjv);
const fullDateTime = fullFormats['date-time'] as { validate: (s: string) => boolean };

/** RFC 3339 date-time in years 0001 to 9999: what PostgreSQL's timestamptz stores and reads back. */
export function isStorableDateTime(value: string): boolean {
  return fullDateTime.validate(value) && /^(?!0000)\d{4}-/.test(value) && !Number.isNaN(Date.parse(value));
}

for (const ajv of [bodyAjv, paramAjv]) {
  ajv.addKeyword('x-secret');
  // Stricter than ajv-formats: no `urn:uuid:` prefix (PostgreSQL's uuid refuses it), no year 0.
  ajv.addFormat('uuid', CANONICAL_UUID);
  ajv.addFormat('date-time', isStorableDateTime);
}

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
    // Query strings and path segments can carry NUL too (`?search=%00`); bodies were checked when parsed.
    if (location !== 'body') checkStrings(value, location);
    if (fn(value)) {
      if (location !== 'body') checkFinite(value, location);
      return value;
    }
    const detail = describe(location, fn.errors![0]!);
    throw invalid(`Invalid ${location === 'params' ? 'path parameter' : location}`, detail);
  };
}
