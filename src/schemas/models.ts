/** The model catalog (seed endpoint 1) and enabled models. */
import { type BodyOf, type JsonSchema, object, pageQuery, type QueryOf } from './common';

const source = { enum: ['source_a', 'source_b'] } as const;

export const catalogQuery = pageQuery(20, {
  query: { type: 'string', maxLength: 1000, description: 'Case-insensitive substring of id, displayName or description' },
  source: { ...source, default: 'source_a' },
});

const modelEntry: JsonSchema = {
  type: 'object',
  required: ['id', 'displayName'],
  properties: { id: { type: 'string' }, displayName: { type: 'string' }, description: { type: 'string' } },
};

export const catalogSchema: JsonSchema = {
  type: 'object',
  required: ['source', 'models', 'page', 'total', 'limit', 'totalPages'],
  properties: {
    source,
    models: { type: 'array', items: modelEntry },
    page: { type: 'integer' },
    total: { type: 'integer' },
    limit: { type: 'integer' },
    totalPages: { type: 'integer' },
  },
};

const modelIds: JsonSchema = { type: 'array', items: { type: 'string' } };

export const enabledModelsSchema: JsonSchema = {
  type: 'object',
  required: ['enabled_models'],
  properties: {
    enabled_models: { type: 'object', required: ['source_a', 'source_b'], properties: { source_a: modelIds, source_b: modelIds } },
  },
};

export const setEnabledModelsBody = object(
  {
    source,
    model_ids: { type: 'array', maxItems: 500, uniqueItems: true, items: { type: 'string', minLength: 1, maxLength: 200 } },
  },
  ['source', 'model_ids'],
);

export type CatalogQuery = QueryOf<typeof catalogQuery>;
export type SetEnabledModelsInput = BodyOf<typeof setEnabledModelsBody>;
