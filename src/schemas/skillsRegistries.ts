/** Skills registries (interop §2.8): the original's EnvironmentSkillsRegistry shapes. */
import { type BodyOf, dateTime, type JsonSchema, object, uuid } from './common';
import { environmentIdParam } from './environments';
import { repoSkillSchema } from './environmentResources';

const required = (schema: JsonSchema): JsonSchema => ({ ...schema, required: Object.keys(schema.properties as object) });

export const registryParams = object({ environmentId: environmentIdParam }, ['environmentId']);
export const registryItemParams = object({ environmentId: environmentIdParam, skillsRegistryId: uuid }, ['environmentId', 'skillsRegistryId']);
export const createRegistryBody = object({ url: { type: 'string', minLength: 1, maxLength: 2048, description: 'GitHub repository URL (e.g. https://github.com/org/skills-repo)' } }, ['url']);

export const registrySchema = required(
  object({
    id: uuid,
    organization_id: uuid,
    environment_id: uuid,
    name: { type: 'string' },
    url: { type: 'string', format: 'uri' },
    repository_full_name: { type: 'string' },
    default_branch: { type: 'string' },
    created_at: dateTime,
    updated_at: dateTime,
  }),
);

const discovery = { repo_skills: { type: 'array', items: repoSkillSchema }, error: { type: ['string', 'null'], description: 'Why the repository could not be read; null when it was' } };

export const registryListSchema = object(
  { registries: { type: 'array', items: { ...registrySchema, properties: { ...(registrySchema.properties as object), ...discovery }, required: [...(registrySchema.required as string[]), 'repo_skills', 'error'] } } },
  ['registries'],
);

export const createRegistryResponse = object({ registry: registrySchema, ...discovery }, ['registry', 'repo_skills', 'error']);

export type CreateRegistryInput = BodyOf<typeof createRegistryBody>;
