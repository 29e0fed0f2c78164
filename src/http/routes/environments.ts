import type { Route } from '../route';
import { defineRoute } from '../route';
import { page, successSchema } from '../../schemas/common';
import {
  createEnvironmentBody,
  environmentEnvelope,
  environmentIdParams as idParams,
  environmentPage,
  listEnvironmentsQuery,
  updateEnvironmentBody,
} from '../../schemas/environments';
import {
  serializeEnvironment,
  type EnvironmentsService,
} from '../../services/environments';

const tag = 'Environments';

export function environmentRoutes(environments: EnvironmentsService): Route[] {
  return [
    defineRoute({
      method: 'get',
      path: '/v1/environments',
      operationId: 'listEnvironments',
      summary: 'List environments (org scope includes Global)',
      tag,
      auth: 'apiKey',
      query: listEnvironmentsQuery,
      response: { status: 200, description: 'A page of environments', schema: environmentPage },
      errors: [400, 401, 403],
      handler: async ({ actor, query }) => {
        const { rows, total } = await environments.list(actor, query);
        return page('environments', rows.map(serializeEnvironment), total, query.page, query.limit);
      },
    }),
    defineRoute({
      method: 'post',
      path: '/v1/environments',
      operationId: 'createEnvironment',
      summary: 'Create a team or personal environment',
      tag,
      auth: 'apiKey',
      body: createEnvironmentBody,
      response: { status: 201, description: 'The created environment', schema: environmentEnvelope },
      errors: [400, 401, 403, 404, 409],
      handler: async ({ actor, body }) => ({ environment: serializeEnvironment(await environments.create(actor, body)) }),
    }),
    defineRoute({
      method: 'get',
      path: '/v1/environments/:id',
      operationId: 'getEnvironment',
      summary: 'Get an environment by id or `global`',
      tag,
      auth: 'apiKey',
      params: idParams,
      response: { status: 200, description: 'The environment', schema: environmentEnvelope },
      errors: [400, 401, 403, 404],
      handler: async ({ actor, params }) => ({ environment: serializeEnvironment(await environments.get(actor, params.id)) }),
    }),
    defineRoute({
      method: 'patch',
      path: '/v1/environments/:id',
      operationId: 'updateEnvironment',
      summary: 'Update an environment (not Global)',
      tag,
      auth: 'apiKey',
      params: idParams,
      body: updateEnvironmentBody,
      response: { status: 200, description: 'The updated environment', schema: environmentEnvelope },
      errors: [400, 401, 403, 404, 409],
      handler: async ({ actor, params, body }) => ({
        environment: serializeEnvironment(await environments.update(actor, params.id, body)),
      }),
    }),
    defineRoute({
      method: 'delete',
      path: '/v1/environments/:id',
      operationId: 'deleteEnvironment',
      summary: 'Delete an environment',
      tag,
      auth: 'apiKey',
      params: idParams,
      response: { status: 200, description: 'Deleted', schema: successSchema },
      errors: [400, 401, 403, 404, 409],
      handler: async ({ actor, params }) => {
        await environments.remove(actor, params.id);
        return { success: true };
      },
    }),
  ];
}
