import type { Route } from '../route';
import { defineRoute } from '../route';
import { page, successSchema } from '../../schemas/common';
import {
  automationEnvelope,
  automationIdParams as idParams,
  automationPage,
  createAutomationBody,
  executionPage,
  listAutomationsQuery,
  listExecutionsQuery,
  triggerAutomationBody,
  triggerAutomationResponse,
  updateAutomationBody,
} from '../../schemas/automations';
import type { AutomationsService } from '../../services/automations';

const tag = 'Automations';

export function automationRoutes(automations: AutomationsService): Route[] {
  return [
    defineRoute({
      method: 'get',
      path: '/v1/automations',
      operationId: 'listAutomations',
      summary: 'List automations (filters: enabled, search, trigger_type, scope)',
      tag,
      auth: 'apiKey',
      query: listAutomationsQuery,
      response: { status: 200, description: 'A page of automations', schema: automationPage },
      errors: [400, 401, 403],
      handler: async ({ actor, query }) => {
        const { rows, total } = await automations.list(actor, query);
        return page('automations', rows, total, query.page, query.limit);
      },
    }),
    defineRoute({
      method: 'post',
      path: '/v1/automations',
      operationId: 'createAutomation',
      summary: 'Create an organization or personal automation',
      tag,
      auth: 'apiKey',
      body: createAutomationBody,
      response: { status: 201, description: 'The created automation', schema: automationEnvelope },
      errors: [400, 401, 403, 404],
      handler: async ({ actor, body }) => ({ automation: await automations.create(actor, body) }),
    }),
    defineRoute({
      method: 'get',
      path: '/v1/automations/:id',
      operationId: 'getAutomation',
      summary: 'Get an automation',
      tag,
      auth: 'apiKey',
      params: idParams,
      response: { status: 200, description: 'The automation', schema: automationEnvelope },
      errors: [400, 401, 403, 404],
      handler: async ({ actor, params }) => ({ automation: await automations.get(actor, params.id) }),
    }),
    defineRoute({
      method: 'patch',
      path: '/v1/automations/:id',
      operationId: 'updateAutomation',
      summary: 'Update an automation (only the fields sent change)',
      tag,
      auth: 'apiKey',
      params: idParams,
      body: updateAutomationBody,
      response: { status: 200, description: 'The updated automation', schema: automationEnvelope },
      errors: [400, 401, 403, 404],
      handler: async ({ actor, params, body }) => ({ automation: await automations.update(actor, params.id, body) }),
    }),
    defineRoute({
      method: 'post',
      path: '/v1/automations/:id/trigger',
      operationId: 'triggerAutomation',
      summary: 'Fire an automation by hand (also when disabled); waits up to ~15 s for its workspace id',
      tag,
      auth: 'apiKey',
      params: idParams,
      body: triggerAutomationBody,
      bodyOptional: true,
      response: { status: 200, description: 'The execution and its workspace (null if not created yet)', schema: triggerAutomationResponse },
      errors: [400, 401, 403, 404, 503],
      handler: async ({ actor, params, body }) => automations.trigger(actor, params.id, body?.payload, body?.pr),
    }),
    defineRoute({
      method: 'get',
      path: '/v1/automations/:id/executions',
      operationId: 'listAutomationExecutions',
      summary: 'Run history of an automation, newest first',
      tag,
      auth: 'apiKey',
      params: idParams,
      query: listExecutionsQuery,
      response: { status: 200, description: 'A page of executions', schema: executionPage },
      errors: [400, 401, 403, 404],
      handler: async ({ actor, params, query }) => {
        const { rows, total } = await automations.listExecutions(actor, params.id, query);
        return page('executions', rows, total, query.page, query.limit);
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/v1/automations/:id',
      operationId: 'deleteAutomation',
      summary: 'Delete an automation and all its execution history',
      tag,
      auth: 'apiKey',
      params: idParams,
      response: { status: 200, description: 'Deleted', schema: successSchema },
      errors: [401, 403, 404],
      handler: async ({ actor, params }) => {
        await automations.remove(actor, params.id);
        return { success: true };
      },
    }),
  ];
}
