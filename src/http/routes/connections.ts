/** `/v1/connections` (the organization's Slack, Linear and Sentry apps and GitLab hooks) and `/v1/user/connections` (members' linked identities). */
import {
  connectionListResponse,
  connectionParams,
  connectionResponse,
  createConnectionBody,
  identityListResponse,
  identityParams,
  identityResponse,
  linkIdentityBody,
  patchConnectionBody,
} from '../../schemas/connections';
import { successSchema } from '../../schemas/common';
import type { ConnectionsService } from '../../services/connections';
import { defineRoute, type Route } from '../route';

const tag = 'Connections';

export function connectionRoutes(service: ConnectionsService): Route[] {
  return [
    defineRoute({
      method: 'get',
      path: '/v1/connections',
      operationId: 'listConnections',
      summary: "The organization's Slack, Linear, Sentry and GitLab connections (which secrets are set, never their values)",
      tag,
      auth: 'apiKey',
      response: { status: 200, description: 'The connections', schema: connectionListResponse },
      errors: [401],
      handler: async ({ actor }) => ({ connections: await service.list(actor) }),
    }),
    defineRoute({
      method: 'post',
      path: '/v1/connections',
      operationId: 'createConnection',
      summary:
        'Connect a Slack workspace, Linear workspace, Sentry organization or GitLab (admins); its secrets are sealed at rest. ' +
        "GitLab: its hooks' webhook_token decides which organization a delivery reaches, and answers are posted with its api_token",
      tag,
      auth: 'apiKey',
      body: createConnectionBody,
      response: { status: 201, description: 'Connected', schema: connectionResponse },
      errors: [400, 401, 403, 409],
      handler: async ({ actor, body }) => ({ connection: await service.create(actor, body) }),
    }),
    defineRoute({
      method: 'get',
      path: '/v1/connections/:connectionId',
      operationId: 'getConnection',
      summary: 'One connection',
      tag,
      auth: 'apiKey',
      params: connectionParams,
      response: { status: 200, description: 'The connection', schema: connectionResponse },
      errors: [400, 401, 404],
      handler: async ({ actor, params }) => ({ connection: await service.get(actor, params.connectionId) }),
    }),
    defineRoute({
      method: 'patch',
      path: '/v1/connections/:connectionId',
      operationId: 'updateConnection',
      summary: 'Rename a connection, rotate some of its secrets (merged) or replace its settings (admins)',
      tag,
      auth: 'apiKey',
      params: connectionParams,
      body: patchConnectionBody,
      response: { status: 200, description: 'The connection', schema: connectionResponse },
      errors: [400, 401, 403, 404],
      handler: async ({ actor, params, body }) => ({ connection: await service.update(actor, params.connectionId, body) }),
    }),
    defineRoute({
      method: 'delete',
      path: '/v1/connections/:connectionId',
      operationId: 'deleteConnection',
      summary: "Disconnect (admins); the connection's threads stop routing",
      tag,
      auth: 'apiKey',
      params: connectionParams,
      response: { status: 200, description: 'Disconnected', schema: successSchema },
      errors: [400, 401, 403, 404],
      handler: async ({ actor, params }) => {
        await service.remove(actor, params.connectionId);
        return { success: true };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/v1/user/connections',
      operationId: 'listUserConnections',
      summary: "Your linked Slack, Linear, GitHub and GitLab identities (an organization key: every member's)",
      tag,
      auth: 'apiKey',
      response: { status: 200, description: 'The identities', schema: identityListResponse },
      errors: [401],
      handler: async ({ actor }) => ({ connections: await service.listIdentities(actor) }),
    }),
    defineRoute({
      method: 'post',
      path: '/v1/user/connections',
      operationId: 'linkUserConnection',
      summary:
        'Link a provider identity to a member by hand (admins; Slack and Linear identities with the same verified email link themselves). ' +
        "GitHub and GitLab identities are the account's numeric user id, never the login",
      tag,
      auth: 'apiKey',
      body: linkIdentityBody,
      response: { status: 201, description: 'Linked', schema: identityResponse },
      errors: [400, 401, 403, 404, 409],
      handler: async ({ actor, body }) => ({ connection: await service.link(actor, body) }),
    }),
    defineRoute({
      method: 'delete',
      path: '/v1/user/connections/:identityId',
      operationId: 'unlinkUserConnection',
      summary: 'Unlink an identity (your own; admins any member’s)',
      tag,
      auth: 'apiKey',
      params: identityParams,
      response: { status: 200, description: 'Unlinked', schema: successSchema },
      errors: [400, 401, 404],
      handler: async ({ actor, params }) => {
        await service.unlink(actor, params.identityId);
        return { success: true };
      },
    }),
  ];
}
