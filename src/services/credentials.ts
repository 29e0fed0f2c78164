/**
 * Coding-agent credentials, per agent, for an organization (admins manage, members only see
 * whether one is set) and for each user (their own). A personal credential wins whenever a
 * workspace or run resolves one. Secrets are sealed at rest and never leave in full except
 * through `resolveCredential` / `organizationSecret`, which the server itself calls.
 */
import { AGENT_IDS, AGENTS, type AgentId, type CredentialKind } from '../agents/catalog';
import type { SecretBox } from '../crypto/secretBox';
import type { Repositories } from '../db';
import type { CredentialOwner, CredentialRow } from '../db/credentialsRepository';
import { invalid, forbidden, notFound } from '../domain/errors';
import { maskedSecret, secretProblem, secretTail } from '../domain/credentialSecrets';
import type { Actor } from '../domain/actor';
import { createCredentialResolver, credentialFields, type CredentialScope, type OAuthTokenRefresher } from '../agents/credentials';
import type { CredentialInput } from '../schemas/credentials';

export type { CredentialScope, OAuthTokenRefresher, ResolvedCredential } from '../agents/credentials';

/** What a credential is set with: the body's own type, derived from its schema (src/schemas/credentials.ts). */
export type { CredentialInput };

/** What a GET shows of one stored credential: never the secret, at most its last four characters. */
export interface CredentialView {
  agent: AgentId;
  scope: CredentialScope;
  configured: boolean;
  id: string | null;
  kind: CredentialKind | null;
  masked_secret: string | null;
  has_refresh_token: boolean;
  expires_at: string | null;
  created_at: string | null;
  updated_at: string | null;
  last_used_at: string | null;
}

/** A member's view of an organization credential: only whether one is set. */
export interface CredentialPresence {
  agent: AgentId;
  scope: CredentialScope;
  configured: boolean;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function serializeCredential(agent: AgentId, scope: CredentialScope, row: CredentialRow | null): CredentialView {
  return {
    agent,
    scope,
    configured: row !== null,
    id: row?.id ?? null,
    kind: row?.kind ?? null,
    masked_secret: row ? maskedSecret(row.secret_tail) : null,
    has_refresh_token: row?.refresh_token_sealed != null,
    expires_at: iso(row?.expires_at ?? null),
    created_at: iso(row?.created_at ?? null),
    updated_at: iso(row?.updated_at ?? null),
    last_used_at: iso(row?.last_used_at ?? null),
  };
}

export function createCredentialsService(deps: {
  repos: Pick<Repositories, 'transact' | 'credentials'>;
  secretBox: SecretBox;
  oauthRefresher?: OAuthTokenRefresher | null;
}) {
  const { secretBox } = deps;
  const { credentials: repo } = deps.repos;
  const resolver = createCredentialResolver(deps);

  const orgOwner = (actor: Actor): CredentialOwner => ({ organizationId: actor.organizationId, userId: null });

  function personalOwner(actor: Actor): CredentialOwner {
    if (!actor.userId) {
      throw forbidden('Organization API keys have no personal credentials', 'use a personal API key for /v1/user/credentials');
    }
    return { organizationId: actor.organizationId, userId: actor.userId };
  }

  function requireAdmin(actor: Actor) {
    if (!actor.isAdmin) throw forbidden('Only organization admins can change organization credentials');
  }

  function checkInput(agent: AgentId, input: CredentialInput) {
    const accepted = AGENTS[agent].credentialKinds;
    if (!accepted.includes(input.kind)) {
      throw invalid('Invalid body', `body.kind: ${agent} accepts only ${accepted.join(', ')}`);
    }
    const secretIssue = secretProblem(input.secret);
    if (secretIssue) throw invalid('Invalid body', `body.secret: ${secretIssue}`);
    if (input.kind !== 'oauth_token') {
      if (input.refresh_token != null) throw invalid('Invalid body', 'body.refresh_token: only an oauth_token has a refresh token');
      if (input.expires_at != null) throw invalid('Invalid body', 'body.expires_at: only an oauth_token expires');
    }
    if (input.refresh_token != null) {
      const issue = secretProblem(input.refresh_token);
      if (issue) throw invalid('Invalid body', `body.refresh_token: ${issue}`);
    }
  }

  function sealInput(owner: CredentialOwner, agent: AgentId, input: CredentialInput) {
    const fields = credentialFields(owner, agent);
    return {
      kind: input.kind,
      secret_sealed: secretBox.seal(input.secret, fields.secret),
      refresh_token_sealed: input.refresh_token != null ? secretBox.seal(input.refresh_token, fields.refreshToken) : null,
      expires_at: input.expires_at != null ? new Date(input.expires_at) : null,
      key_id: secretBox.activeKeyId,
      secret_tail: secretTail(input.secret),
    };
  }

  async function set(owner: CredentialOwner, agent: AgentId, input: CredentialInput): Promise<CredentialRow> {
    checkInput(agent, input);
    return repo.upsert(owner, agent, sealInput(owner, agent, input));
  }

  async function remove(owner: CredentialOwner, agent: AgentId): Promise<void> {
    if (!(await repo.delete(owner, agent))) throw notFound('Credential');
  }

  return {
    /** Every agent from the caller's point of view: the organization's, the caller's own, and which one a run would use. */
    async overview(actor: Actor) {
      const org = new Map((await repo.listFor(orgOwner(actor))).map((r) => [r.agent, r]));
      const mine = actor.userId ? new Map((await repo.listFor({ organizationId: actor.organizationId, userId: actor.userId })).map((r) => [r.agent, r])) : null;
      return AGENT_IDS.map((agent) => {
        const orgRow = org.get(agent) ?? null;
        const personalRow = mine?.get(agent) ?? null;
        return {
          agent,
          accepted_kinds: [...AGENTS[agent].credentialKinds],
          organization: actor.isAdmin ? serializeCredential(agent, 'organization', orgRow) : presence(agent, orgRow),
          personal: mine ? serializeCredential(agent, 'personal', personalRow) : null,
          effective_source: (personalRow ? 'personal' : orgRow ? 'organization' : null) as CredentialScope | null,
        };
      });
    },

    async getOrganization(actor: Actor, agent: AgentId): Promise<CredentialView | CredentialPresence> {
      const row = await repo.find(orgOwner(actor), agent);
      return actor.isAdmin ? serializeCredential(agent, 'organization', row) : presence(agent, row);
    },

    async setOrganization(actor: Actor, agent: AgentId, input: CredentialInput): Promise<CredentialRow> {
      requireAdmin(actor);
      return set(orgOwner(actor), agent, input);
    },

    async deleteOrganization(actor: Actor, agent: AgentId): Promise<void> {
      requireAdmin(actor);
      await remove(orgOwner(actor), agent);
    },

    /** The raw row for the original's alias routes, which shape their own answers. */
    async findOrganization(actor: Actor, agent: AgentId): Promise<CredentialRow | null> {
      return repo.find(orgOwner(actor), agent);
    },

    async findPersonal(actor: Actor, agent: AgentId): Promise<CredentialRow | null> {
      return repo.find(personalOwner(actor), agent);
    },

    async getPersonal(actor: Actor, agent: AgentId): Promise<CredentialView> {
      return serializeCredential(agent, 'personal', await repo.find(personalOwner(actor), agent));
    },

    async setPersonal(actor: Actor, agent: AgentId, input: CredentialInput): Promise<CredentialRow> {
      return set(personalOwner(actor), agent, input);
    },

    async deletePersonal(actor: Actor, agent: AgentId): Promise<void> {
      await remove(personalOwner(actor), agent);
    },

    /** The credential a turn of `agent` uses (personal first) and the organization's secret for provider calls. */
    resolveCredential: resolver.resolveCredential,
    organizationSecret: resolver.organizationSecret,
  };
}

function presence(agent: AgentId, row: CredentialRow | null): CredentialPresence {
  return { agent, scope: 'organization', configured: row !== null };
}

export type CredentialsService = ReturnType<typeof createCredentialsService>;
