import { successSchema } from '../../schemas/common';
import { createRegistryBody, createRegistryResponse, registryItemParams, registryListSchema, registryParams } from '../../schemas/skillsRegistries';
import type { SkillsRegistriesService } from '../../services/environmentResources/skillsRegistries';
import { defineRoute, type Route } from '../route';

const tag = 'Environments';
const collection = '/v1/environments/:environmentId/skills-registries';

export function skillsRegistryRoutes(registries: SkillsRegistriesService): Route[] {
  return [
    defineRoute({
      method: 'get',
      path: collection,
      operationId: 'listEnvironmentSkillsRegistries',
      summary: "The environment's skills registries, each with the skills discovered in it now",
      tag,
      auth: 'apiKey',
      params: registryParams,
      response: { status: 200, description: 'The registries; `error` says why one could not be read', schema: registryListSchema },
      errors: [400, 401, 403, 404],
      handler: async ({ actor, params }) => ({ registries: await registries.list(actor, params.environmentId) }),
    }),
    defineRoute({
      method: 'post',
      path: collection,
      operationId: 'createEnvironmentSkillsRegistry',
      summary: 'Add a GitHub repository as a skills registry: its skills are installed into workspaces at provisioning',
      tag,
      auth: 'apiKey',
      params: registryParams,
      body: createRegistryBody,
      response: { status: 200, description: 'The registry (created even when its repository cannot be read: then `error` says why)', schema: createRegistryResponse },
      errors: [400, 401, 403, 404, 409],
      handler: ({ actor, params, body }) => registries.create(actor, params.environmentId, body.url),
    }),
    defineRoute({
      method: 'delete',
      path: `${collection}/:skillsRegistryId`,
      operationId: 'deleteEnvironmentSkillsRegistry',
      summary: 'Remove a skills registry from the environment',
      tag,
      auth: 'apiKey',
      params: registryItemParams,
      response: { status: 200, description: 'Removed', schema: successSchema },
      errors: [400, 401, 403, 404],
      handler: async ({ actor, params }) => {
        await registries.remove(actor, params.environmentId, params.skillsRegistryId);
        return { success: true };
      },
    }),
  ];
}
