/**
 * Schema pieces shared by every operation group. JSON Schema usable by ajv and OpenAPI 3.1.
 *
 * The schemas keep their literal types (`object()` and the `as const` pieces below), so the
 * TypeScript type of what a body, query or path admits is derived from the schema itself
 * (`BodyOf`, `QueryOf`) instead of being written a second time beside it.
 */
import type { FromSchema, JSONSchema } from 'json-schema-to-ts';

/** Any JSON Schema, as ajv and the OpenAPI document take it. */
export type JsonSchema = Record<string, unknown>;

/**
 * What a request body passing `S` is. Bodies are validated without filling defaults, so a
 * property with a `default` is still optional. `unknown` for a schema typed only as `JsonSchema`.
 */
export type BodyOf<S> = S extends JSONSchema ? FromSchema<S, { keepDefaultedPropertiesOptional: true }> : unknown;

/**
 * What a query string or path passing `S` is: coerced, with every `default` filled in (ajv's
 * `useDefaults`), so a defaulted property is always there.
 */
export type QueryOf<S> = S extends JSONSchema ? FromSchema<S> : unknown;

export const errorBodySchema: JsonSchema = {
  type: 'object',
  required: ['error'],
  properties: { error: { type: 'string' }, details: { type: ['string', 'null'] } },
};

export const uuid = { type: 'string', format: 'uuid' } as const;
export const nullableUuid = { type: ['string', 'null'], format: 'uuid' } as const;
export const dateTime = { type: 'string', format: 'date-time' } as const;
export const successSchema: JsonSchema = {
  type: 'object',
  required: ['success'],
  properties: { success: { const: true } },
};

/** A closed object: only the named properties, `required` among them. Keeps the literal types of both. */
export function object<const P extends Record<string, JsonSchema>, const R extends readonly string[] = []>(
  properties: P,
  required: R = [] as unknown as R,
): { type: 'object'; additionalProperties: false; properties: P; required: R } {
  return { type: 'object', additionalProperties: false, properties, required };
}

/** The last page any list answers: its offset must stay within PostgreSQL's bigint (a 500 before). */
export const MAX_PAGE = 1_000_000;
export const pageParam = { type: 'integer', minimum: 1, maximum: MAX_PAGE, default: 1 } as const;

export function pageQuery<const E extends Record<string, JsonSchema> = Record<never, never>>(defaultLimit: number, extra: E = {} as E) {
  return object({
    page: pageParam,
    limit: { type: 'integer', minimum: 1, maximum: 100, default: defaultLimit },
    ...extra,
  });
}

export function pageEnvelope(key: string, item: JsonSchema): JsonSchema {
  return {
    type: 'object',
    required: [key, 'total', 'page', 'limit', 'totalPages'],
    properties: {
      [key]: { type: 'array', items: item },
      total: { type: 'integer' },
      page: { type: 'integer' },
      limit: { type: 'integer' },
      totalPages: { type: 'integer' },
    },
  };
}

export function page<T>(key: string, items: T[], total: number, pageNo: number, limit: number) {
  return { [key]: items, total, page: pageNo, limit, totalPages: Math.ceil(total / limit) };
}
