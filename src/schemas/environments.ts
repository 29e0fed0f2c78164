import { type BodyOf, dateTime, type JsonSchema, nullableUuid, object, pageEnvelope, pageQuery, type QueryOf, uuid } from './common';

/** A path segment naming an environment: its UUID or the literal `global`. */
export const environmentIdParam = {
  anyOf: [{ type: 'string', format: 'uuid' }, { const: 'global' }],
} as const;

const name = { type: 'string', minLength: 1, maxLength: 100, pattern: '\\S' } as const;
const longText = (max: number) => ({ type: ['string', 'null'], maxLength: max }) as const;

export const environmentSchema: JsonSchema = {
  type: 'object',
  properties: {
    id: uuid,
    organization_id: uuid,
    user_id: nullableUuid,
    name: { type: 'string' },
    description: { type: ['string', 'null'] },
    is_global: { type: 'boolean' },
    repository_id: nullableUuid,
    repository_set_id: nullableUuid,
    system_prompt: { type: ['string', 'null'] },
    mobile_testing_enabled: { type: 'boolean' },
    personal_preferences: { type: ['string', 'null'] },
    source_environment_id: nullableUuid,
    variable_count: { type: 'integer' },
    file_count: { type: 'integer' },
    skill_count: { type: 'integer' },
    mcp_count: { type: 'integer' },
    created_at: dateTime,
    updated_at: dateTime,
  },
};

const editable = {
  name,
  description: longText(2000),
  repository_id: nullableUuid,
  repository_set_id: nullableUuid,
  system_prompt: longText(100_000),
  personal_preferences: longText(100_000),
  mobile_testing_enabled: { type: 'boolean' },
} as const;

export const createEnvironmentBody = object(
  { ...editable, scope: { enum: ['org', 'user'] }, source_environment_id: nullableUuid },
  ['name'],
);

export const updateEnvironmentBody = { ...object(editable), minProperties: 1 } as const;

export const environmentEnvelope = object({ environment: environmentSchema }, ['environment']);
export const environmentPage = pageEnvelope('environments', environmentSchema);

export const environmentIdParams = object({ id: environmentIdParam }, ['id']);
export const listEnvironmentsQuery = pageQuery(20, { scope: { enum: ['org', 'user', 'all'], default: 'org' } });

export type CreateEnvironmentInput = BodyOf<typeof createEnvironmentBody>;
export type UpdateEnvironmentInput = BodyOf<typeof updateEnvironmentBody>;
export type ListEnvironmentsQuery = QueryOf<typeof listEnvironmentsQuery>;
