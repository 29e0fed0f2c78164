/**
 * Environment sub-resources: variables, files, skills and MCP servers (interop §2.6–2.9).
 * Rules that JSON Schema cannot state (UTF-8 byte limits, path normalisation, the reserved
 * MCP name prefix, transport changes on PATCH) live in the services and answer 400 as well.
 */
import { type BodyOf, dateTime, type JsonSchema, object, type QueryOf, uuid } from './common';
import { environmentIdParam } from './environments';

export const VARIABLE_KEY_PATTERN = '^[A-Za-z_][A-Za-z0-9_]*$';
export const VARIABLE_VALUE_MAX = 65_536;
export const FILE_CONTENT_MAX_BYTES = 65_536;
export const FILE_PATH_MAX = 1024;
export const MCP_NAME_PATTERN = '^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$';

export const resourceListParams = object({ environmentId: environmentIdParam }, ['environmentId']);
export const resourceParams = object({ environmentId: environmentIdParam, id: uuid }, ['environmentId', 'id']);

const recordBase = { id: uuid, organization_id: uuid, environment_id: uuid };
const timestamps = { created_at: dateTime, updated_at: dateTime };
const required = (schema: JsonSchema): JsonSchema => ({ ...schema, required: Object.keys(schema.properties as object) });
const withSome = <S extends JsonSchema>(schema: S) => ({ ...schema, minProperties: 1 }) as const;

// Variables

const variableKey = { type: 'string', minLength: 1, maxLength: 256, pattern: VARIABLE_KEY_PATTERN } as const;
const variableFields = {
  key: variableKey,
  value: { type: 'string', maxLength: VARIABLE_VALUE_MAX, 'x-secret': true },
  personal_override_allowed: { type: 'boolean', description: 'Whether personal environments may override this key; admins only' },
} as const;

export const variableSchema = required(object({ ...recordBase, ...variableFields, ...timestamps }));
export const createVariableBody = object(variableFields, ['key', 'value']);
export const updateVariableBody = withSome(object(variableFields));

// Files

const filePath = {
  type: 'string',
  minLength: 3,
  maxLength: FILE_PATH_MAX,
  description: 'Under the home directory: `~/...` (including `~/workspaces/...`); normalised on write, no `..` segments',
} as const;
const fileFields = {
  name: { type: 'string', minLength: 1, maxLength: 255, description: 'Defaults to the basename of `path`' },
  path: filePath,
  // The byte limit (UTF-8) is enforced by the service; this bounds the characters first.
  content: { type: 'string', maxLength: FILE_CONTENT_MAX_BYTES, description: 'At most 65,536 bytes of UTF-8', 'x-secret': true },
} as const;

export const fileSchema = required(object({ ...recordBase, ...fileFields, ...timestamps }));
export const createFileBody = object(fileFields, ['path', 'content']);
export const updateFileBody = withSome(object(fileFields));

// Skills

const skillFields = {
  name: { type: 'string', minLength: 1, maxLength: 200, pattern: '\\S' },
  slug: { type: 'string', minLength: 1, maxLength: 128, pattern: '^[A-Za-z0-9][A-Za-z0-9._-]*$' },
  source: { type: 'string', minLength: 1, maxLength: 500, pattern: '^\\S+$', description: 'e.g. `github:owner/repo/path`' },
} as const;

export const skillSchema = required(object({ ...recordBase, ...skillFields, ...timestamps }));
export const createSkillBody = object(skillFields, ['name', 'slug', 'source']);
export const skillSearchQuery = object({ q: { type: 'string', maxLength: 200, default: '' } });
export const skillSearchResult = object(
  {
    skills: {
      type: 'array',
      items: required(object({ name: { type: 'string' }, slug: { type: 'string' }, source: { type: 'string' }, installs: { type: 'integer' } })),
    },
  },
  ['skills'],
);

/** The original's `RepoSkill` (framework with the spec's agent ids): a repo skill, or a registry's. */
export const repoSkillSchema = required(
  object({
    id: { type: 'string' },
    repository_id: { type: 'string', format: 'uuid', description: 'The bound repository, or the skills registry' },
    repository_full_name: { type: 'string' },
    branch: { type: 'string' },
    path: { type: 'string' },
    name: { type: 'string' },
    description: { type: ['string', 'null'] },
    framework: { enum: ['agent_1', 'agent_2', 'agent_3', 'agents'] },
    kind: { enum: ['skill', 'agent', 'command', 'prompt', 'plugin'] },
    html_url: { type: 'string', format: 'uri' },
  }),
);

export const repoSkillsSchema = object({ repo_skills: { type: 'array', items: repoSkillSchema }, error: { type: ['string', 'null'] } }, ['repo_skills', 'error']);

// MCP servers

const envName = { type: 'string', pattern: VARIABLE_KEY_PATTERN, maxLength: 256 } as const;
const headerName = { type: 'string', pattern: "^[!#$%&'*+.^_`|~0-9A-Za-z-]+$", maxLength: 256 } as const;

export const stdioConfigSchema = object(
  {
    command: { type: 'string', minLength: 1, maxLength: 4096 },
    args: { type: 'array', maxItems: 256, items: { type: 'string', maxLength: 4096 } },
    env: {
      type: 'object',
      maxProperties: 256,
      propertyNames: envName,
      additionalProperties: { type: 'string', maxLength: VARIABLE_VALUE_MAX },
    },
  },
  ['command'],
);

export const remoteConfigSchema = object(
  {
    url: { type: 'string', format: 'uri', pattern: '^https?://', maxLength: 4096 },
    headers: {
      type: 'object',
      maxProperties: 100,
      propertyNames: headerName,
      additionalProperties: { type: 'string', maxLength: 8192, pattern: '^[^\\r\\n\\u0000]*$' },
    },
  },
  ['url'],
);

export const MCP_TRANSPORTS = ['stdio', 'http', 'sse'] as const;
const transport = { enum: [...MCP_TRANSPORTS] } as const;

/** The config must fit the transport named beside it (when one is named). */
const configByTransport = [
  {
    if: { type: 'object', required: ['transport'], properties: { transport: { const: 'stdio' } } },
    then: { type: 'object', properties: { config: stdioConfigSchema } },
  },
  {
    if: { type: 'object', required: ['transport'], properties: { transport: { enum: ['http', 'sse'] } } },
    then: { type: 'object', properties: { config: remoteConfigSchema } },
  },
] as const;

const mcpFields = {
  name: { type: 'string', pattern: MCP_NAME_PATTERN, description: 'Must not start with the reserved prefix `hangar-`' },
  transport,
  config: {
    type: 'object',
    description: '`stdio`: `{command, args[], env{}}`; `http`/`sse`: `{url, headers{}}`. Sent alone on PATCH it must fit the current transport',
    'x-secret': true,
  },
} as const;

export const mcpSchema = required(
  object({
    ...recordBase,
    name: { type: 'string' },
    transport,
    config: { oneOf: [stdioConfigSchema, remoteConfigSchema] },
    ...timestamps,
  }),
);
export const createMcpBody = { ...object(mcpFields, ['name', 'transport', 'config']), allOf: configByTransport } as const;
export const updateMcpBody = { ...withSome(object(mcpFields)), allOf: configByTransport } as const;

const envelope = (key: string, item: JsonSchema) => object({ [key]: item }, [key]);
const listEnvelope = (key: string, item: JsonSchema) => object({ [key]: { type: 'array', items: item } }, [key]);

/** A resource's schemas: the keys its answers use, the list and single answers, the bodies it takes (no update body: no PATCH). */
export interface ResourceSchemas<C extends JsonSchema = JsonSchema, U extends JsonSchema | undefined = JsonSchema | undefined> {
  listKey: string;
  itemKey: string;
  list: JsonSchema;
  one: JsonSchema;
  createBody: C;
  updateBody: U;
}

function resourceSchemas<C extends JsonSchema, U extends JsonSchema | undefined = undefined>(
  listKey: string,
  itemKey: string,
  record: JsonSchema,
  bodies: { createBody: C; updateBody?: U },
): ResourceSchemas<C, U> {
  return { listKey, itemKey, list: listEnvelope(listKey, record), one: envelope(itemKey, record), createBody: bodies.createBody, updateBody: bodies.updateBody as U };
}

export const variableResource = resourceSchemas('environment_variables', 'environment_variable', variableSchema, { createBody: createVariableBody, updateBody: updateVariableBody });
export const fileResource = resourceSchemas('environment_files', 'environment_file', fileSchema, { createBody: createFileBody, updateBody: updateFileBody });
export const skillResource = resourceSchemas('environment_skills', 'environment_skill', skillSchema, { createBody: createSkillBody });
export const mcpResource = resourceSchemas('environment_mcps', 'environment_mcp', mcpSchema, { createBody: createMcpBody, updateBody: updateMcpBody });

export type VariableInput = BodyOf<typeof createVariableBody>;
export type VariablePatch = BodyOf<typeof updateVariableBody>;
export type FileInput = BodyOf<typeof createFileBody>;
export type FilePatch = BodyOf<typeof updateFileBody>;
export type SkillInput = BodyOf<typeof createSkillBody>;
export type McpInput = BodyOf<typeof createMcpBody>;
export type McpPatch = BodyOf<typeof updateMcpBody>;
export type SkillSearchQuery = QueryOf<typeof skillSearchQuery>;
