/** Schema pieces shared by every operation group. JSON Schema usable by ajv and OpenAPI 3.1. */
import type { JsonSchema } from '../http/route';

export const errorBodySchema: JsonSchema = {
  type: 'object',
  required: ['error'],
  properties: { error: { type: 'string' }, details: { type: ['string', 'null'] } },
};

export const uuid: JsonSchema = { type: 'string', format: 'uuid' };
export const nullableUuid: JsonSchema = { type: ['string', 'null'], format: 'uuid' };
export const dateTime: JsonSchema = { type: 'string', format: 'date-time' };
export const successSchema: JsonSchema = {
  type: 'object',
  required: ['success'],
  properties: { success: { const: true } },
};

export function object(properties: Record<string, JsonSchema>, required: string[] = []): JsonSchema {
  return { type: 'object', additionalProperties: false, properties, required };
}

/** The last page any list answers: its offset must stay within PostgreSQL's bigint (a 500 before). */
export const MAX_PAGE = 1_000_000;
export const pageParam: JsonSchema = { type: 'integer', minimum: 1, maximum: MAX_PAGE, default: 1 };

export function pageQuery(defaultLimit: number, extra: Record<string, JsonSchema> = {}): JsonSchema {
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
