import { catalogQuery, catalogSchema, enabledModelsSchema, setEnabledModelsBody } from '../../schemas/models';
import type { ModelCatalogService } from '../../services/modelCatalog';
import { defineRoute, type Route } from '../route';

const tag = 'Model catalog';

export function modelsRoutes(models: ModelCatalogService): Route[] {
  return [
    defineRoute({
      method: 'get',
      path: '/v1/ai-gateway/models',
      operationId: 'listModels',
      summary: 'Search a page of the model catalog (live with an organization key, built-in otherwise)',
      tag,
      auth: 'apiKey',
      query: catalogQuery,
      response: { status: 200, description: 'A page of the model catalog', schema: catalogSchema, reusedBodies: true },
      errors: [400, 401],
      handler: ({ actor, query }) => models.list(actor, query),
    }),
    defineRoute({
      method: 'get',
      path: '/v1/ai-gateway/enabled-models',
      operationId: 'getEnabledModels',
      summary: 'The model ids enabled for the organization, per catalog',
      tag,
      auth: 'apiKey',
      response: { status: 200, description: 'Enabled model ids', schema: enabledModelsSchema },
      errors: [401],
      handler: async ({ actor }) => ({ enabled_models: await models.enabledModels(actor) }),
    }),
    defineRoute({
      method: 'put',
      path: '/v1/ai-gateway/enabled-models',
      operationId: 'setEnabledModels',
      summary: 'Replace the enabled model ids of one catalog (admins; an empty list restores the default)',
      tag,
      auth: 'apiKey',
      body: setEnabledModelsBody,
      response: { status: 200, description: 'Enabled model ids', schema: enabledModelsSchema },
      errors: [400, 401, 403],
      handler: async ({ actor, body }) => ({ enabled_models: await models.setEnabledModels(actor, body) }),
    }),
  ];
}
