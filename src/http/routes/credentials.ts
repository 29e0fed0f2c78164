import type { AgentId } from '../../agents/catalog';
import { successSchema } from '../../schemas/common';
import {
  agentParams,
  credentialEnvelope,
  credentialsOverviewSchema,
  legacyCreatedSchema,
  legacyCredentialBody,
  legacyCredentialSchema,
  setCredentialBody,
} from '../../schemas/credentials';
import type { CredentialRow } from '../../db/credentialsRepository';
import { invalid } from '../../domain/errors';
import { maskedSecret, secretProblem } from '../../domain/credentialSecrets';
import { serializeCredential, type CredentialInput, type CredentialScope, type CredentialsService } from '../../services/credentials';
import type { Actor } from '../../domain/actor';
import { defineRoute, type Route } from '../route';

const tag = 'Credentials';

/** The agent behind the original's one-agent routes (`/v1/agent_4-go/...`). */
const LEGACY_AGENT: AgentId = 'agent_4';

/** The original's GET shape: camelCase, optional fields left out, the key masked. */
function legacyView(row: CredentialRow | null, full: boolean) {
  if (!row) return { hasCredentials: false };
  if (!full) return { hasCredentials: true };
  return {
    hasCredentials: true,
    credentialId: row.id,
    apiKey: maskedSecret(row.secret_tail),
    ...(row.last_used_at ? { lastFetchedAt: row.last_used_at.toISOString() } : {}),
  };
}

export function credentialsRoutes(credentials: CredentialsService): Route[] {
  return [
    defineRoute({
      method: 'get',
      path: '/v1/credentials',
      operationId: 'listCredentials',
      summary: "Every agent's organization and personal credential, as the caller may see them",
      tag,
      auth: 'apiKey',
      response: { status: 200, description: 'One entry per agent', schema: credentialsOverviewSchema },
      errors: [401],
      handler: async ({ actor }) => ({ credentials: await credentials.overview(actor) }),
    }),

    ...scopedRoutes({
      path: '/v1/organization/credentials/:agent',
      operation: 'Organization',
      scope: 'organization',
      summaries: {
        get: "The organization's credential for an agent (members see only whether it is configured)",
        set: "Set or replace the organization's credential for an agent (admins)",
        delete: "Remove the organization's credential for an agent (admins)",
      },
      getErrors: [400, 401],
      get: credentials.getOrganization,
      set: credentials.setOrganization,
      remove: credentials.deleteOrganization,
    }),
    ...scopedRoutes({
      path: '/v1/user/credentials/:agent',
      operation: 'User',
      scope: 'personal',
      summaries: {
        get: "The caller's personal credential for an agent (personal API keys only)",
        set: "Set or replace the caller's personal credential for an agent; it wins over the organization's",
        delete: "Remove the caller's personal credential for an agent",
      },
      getErrors: [400, 401, 403],
      get: credentials.getPersonal,
      set: credentials.setPersonal,
      remove: credentials.deletePersonal,
    }),

    ...legacyRoutes(credentials),
  ];
}

/** GET, POST and DELETE of one owner's credential for an agent: the organization's or the caller's own. */
function scopedRoutes(spec: {
  path: string;
  /** Operation id stem: `get${operation}Credential`. */
  operation: string;
  scope: CredentialScope;
  summaries: { get: string; set: string; delete: string };
  getErrors: number[];
  get(actor: Actor, agent: AgentId): Promise<unknown>;
  set(actor: Actor, agent: AgentId, input: CredentialInput): Promise<CredentialRow>;
  remove(actor: Actor, agent: AgentId): Promise<void>;
}): Route[] {
  return [
    defineRoute({
      method: 'get',
      path: spec.path,
      operationId: `get${spec.operation}Credential`,
      summary: spec.summaries.get,
      tag,
      auth: 'apiKey',
      params: agentParams,
      response: { status: 200, description: 'The credential, masked', schema: credentialEnvelope },
      errors: spec.getErrors,
      handler: async ({ actor, params }) => ({ credential: await spec.get(actor, params.agent) }),
    }),
    defineRoute({
      method: 'post',
      path: spec.path,
      operationId: `set${spec.operation}Credential`,
      summary: spec.summaries.set,
      tag,
      auth: 'apiKey',
      params: agentParams,
      body: setCredentialBody,
      response: { status: 200, description: 'The stored credential, masked', schema: credentialEnvelope },
      errors: [400, 401, 403],
      handler: async ({ actor, params, body }) => ({
        credential: serializeCredential(params.agent, spec.scope, await spec.set(actor, params.agent, body)),
      }),
    }),
    defineRoute({
      method: 'delete',
      path: spec.path,
      operationId: `delete${spec.operation}Credential`,
      summary: spec.summaries.delete,
      tag,
      auth: 'apiKey',
      params: agentParams,
      response: { status: 200, description: 'Deleted', schema: successSchema },
      errors: [400, 401, 403, 404],
      handler: async ({ actor, params }) => {
        await spec.remove(actor, params.agent);
        return { success: true };
      },
    }),
  ];
}

/** The original's routes for agent_4, kept with exactly its shapes for existing clients. */
function legacyRoutes(credentials: CredentialsService): Route[] {
  const routes: Route[] = [];
  for (const scope of ['organization', 'personal'] as const) {
    const personal = scope === 'personal';
    const path = personal ? '/v1/agent_4-go/user/credentials' : '/v1/agent_4-go/credentials';
    const suffix = personal ? 'UserCredentials' : 'Credentials';
    const whose = personal ? "the caller's personal" : "the organization's";
    routes.push(
      defineRoute({
        method: 'get',
        path,
        operationId: `getAgent4Go${suffix}`,
        summary: `Whether ${whose} agent_4 key is set (alias of the agent_4 credential)`,
        tag,
        auth: 'apiKey',
        response: { status: 200, description: 'Whether a key is set, masked', schema: legacyCredentialSchema },
        errors: personal ? [401, 403] : [401],
        handler: async ({ actor }) =>
          personal
            ? legacyView(await credentials.findPersonal(actor, LEGACY_AGENT), true)
            : legacyView(await credentials.findOrganization(actor, LEGACY_AGENT), actor.isAdmin),
      }),
      defineRoute({
        method: 'post',
        path,
        operationId: `setAgent4Go${suffix}`,
        summary: `Set ${whose} agent_4 key${personal ? '' : ' (admins)'}`,
        tag,
        auth: 'apiKey',
        body: legacyCredentialBody,
        response: { status: 200, description: 'Stored', schema: legacyCreatedSchema },
        errors: [400, 401, 403],
        handler: async ({ actor, body }) => {
          const problem = secretProblem(body.api_key);
          if (problem) throw invalid('Invalid body', `body.api_key: ${problem}`);
          const input: CredentialInput = { kind: 'api_key', secret: body.api_key };
          const row = personal
            ? await credentials.setPersonal(actor, LEGACY_AGENT, input)
            : await credentials.setOrganization(actor, LEGACY_AGENT, input);
          return { success: true, credentialId: row.id };
        },
      }),
      defineRoute({
        method: 'delete',
        path,
        operationId: `deleteAgent4Go${suffix}`,
        summary: `Remove ${whose} agent_4 key${personal ? '' : ' (admins)'}`,
        tag,
        auth: 'apiKey',
        response: { status: 200, description: 'Deleted', schema: successSchema },
        errors: [401, 403, 404],
        handler: async ({ actor }) => {
          if (personal) await credentials.deletePersonal(actor, LEGACY_AGENT);
          else await credentials.deleteOrganization(actor, LEGACY_AGENT);
          return { success: true };
        },
      }),
    );
  }
  return routes;
}
