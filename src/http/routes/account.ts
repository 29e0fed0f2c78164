import {
  apiKeyIdParams,
  apiKeyListQuery,
  apiKeyPage,
  createApiKeyBody,
  createdApiKeyEnvelope,
  profileEnvelope,
  updateProfileBody,
} from '../../schemas/account';
import { page, successSchema } from '../../schemas/common';
import type { Actor } from '../../domain/actor';
import type { Paging, UserAccountService } from '../../services/userAccount';
import type { Route } from '../route';
import { defineRoute } from '../route';

interface KeyOperations {
  create(actor: Actor, name: string): Promise<unknown>;
  list(actor: Actor, paging: Paging): Promise<{ rows: unknown[]; total: number }>;
  revoke(actor: Actor, id: string): Promise<void>;
}

/** The same three operations over personal keys (`/v1/user`) and org keys (`/v1/organization`). */
function apiKeyRoutes(base: string, scope: { owner: string; operation: string }, keys: KeyOperations): Route[] {
  const tag = 'API keys';
  const errors = [401, 403];
  return [
    defineRoute({
      method: 'post',
      path: `${base}/api-keys`,
      operationId: `create${scope.operation}ApiKey`,
      summary: `Create an API key of ${scope.owner}; the secret \`key\` appears only in this answer`,
      tag,
      auth: 'apiKey',
      body: createApiKeyBody,
      response: { status: 201, description: 'The created key, with its secret', schema: createdApiKeyEnvelope },
      errors: [400, ...errors],
      handler: async ({ actor, body }) => ({ api_key: await keys.create(actor, body.name) }),
    }),
    defineRoute({
      method: 'get',
      path: `${base}/api-keys`,
      operationId: `list${scope.operation}ApiKeys`,
      summary: `List the unrevoked API keys of ${scope.owner}, newest first`,
      tag,
      auth: 'apiKey',
      query: apiKeyListQuery,
      response: { status: 200, description: 'A page of keys (never their secrets)', schema: apiKeyPage },
      errors: [400, ...errors],
      handler: async ({ actor, query }) => {
        const { rows, total } = await keys.list(actor, query);
        return page('api_keys', rows, total, query.page, query.limit);
      },
    }),
    defineRoute({
      method: 'delete',
      path: `${base}/api-keys/:apiKeyId`,
      operationId: `revoke${scope.operation}ApiKey`,
      summary: `Revoke an API key of ${scope.owner}; it is refused from its next request on`,
      tag,
      auth: 'apiKey',
      params: apiKeyIdParams,
      response: { status: 200, description: 'Revoked', schema: successSchema },
      errors: [400, ...errors, 404],
      handler: async ({ actor, params }) => {
        await keys.revoke(actor, params.apiKeyId);
        return { success: true };
      },
    }),
  ];
}

export function accountRoutes(account: UserAccountService): Route[] {
  const tag = 'Profile';
  return [
    defineRoute({
      method: 'get',
      path: '/v1/user/profile',
      operationId: 'getProfile',
      summary: "The calling user's profile (personal API keys only)",
      tag,
      auth: 'apiKey',
      response: { status: 200, description: 'The profile', schema: profileEnvelope },
      errors: [401, 403],
      handler: async ({ actor }) => ({ profile: await account.getProfile(actor) }),
    }),
    defineRoute({
      method: 'put',
      path: '/v1/user/profile',
      operationId: 'updateProfile',
      summary: 'Update the display name and/or avatar URL; omitted fields keep their value',
      tag,
      auth: 'apiKey',
      body: updateProfileBody,
      response: { status: 200, description: 'The updated profile', schema: profileEnvelope },
      errors: [400, 401, 403],
      handler: async ({ actor, body }) => ({ profile: await account.updateProfile(actor, body) }),
    }),
    ...apiKeyRoutes(
      '/v1/user',
      { owner: 'the calling user', operation: 'Personal' },
      { create: account.createPersonalKey, list: account.listPersonalKeys, revoke: account.revokePersonalKey },
    ),
    ...apiKeyRoutes(
      '/v1/organization',
      { owner: 'the organization (admins only)', operation: 'Organization' },
      { create: account.createOrganizationKey, list: account.listOrganizationKeys, revoke: account.revokeOrganizationKey },
    ),
  ];
}
