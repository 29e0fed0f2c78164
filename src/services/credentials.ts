/**
 * Coding-agent credentials, per agent, for an organization (admins manage, members only see
 * whether one is set) and for each user (their own). A personal credential wins whenever a
 * workspace or run resolves one. Secrets are sealed at rest and never leave in full except
 * through `resolveCredential` / `organizationSecret`, which the server itself calls.
 */
import type { Knex } from 'knex';
import { AGENT_IDS, AGENTS, type AgentId, type CredentialKind } from '../agents/catalog';
import type { SecretBox } from '../crypto/secretBox';
import { createCredentialsRepository, type CredentialOwner, type CredentialRow, type CredentialsRepository } from '../db/credentialsRepository';
import { invalid, forbidden, notFound } from '../domain/errors';
import { maskedSecret, sealedKeyId, secretProblem, secretTail } from './credentialSecrets';
import type { Actor } from '../domain/actor';

export type CredentialScope = 'organization' | 'personal';

export interface CredentialInput {
  kind: CredentialKind;
  secret: string;
  refresh_token?: string | null;
  expires_at?: string | null;
}

export interface ResolvedCredential {
  source: CredentialScope;
  kind: CredentialKind;
  secret: string;
  credentialId: string;
  /** When an OAuth token expires (null for API keys or when unknown). */
  expiresAt: Date | null;
}

/**
 * Refreshing an OAuth token needs the agent vendor's token endpoint, which this service cannot
 * reach here. A deployment that can plugs an implementation in; without one, an expired token
 * is handed out as stored and the agent reports the provider's rejection.
 */
export interface OAuthTokenRefresher {
  refresh(input: { agent: AgentId; refreshToken: string }): Promise<{ accessToken: string; refreshToken?: string | null; expiresAt?: Date | null }>;
}

/** Refresh a token this close to its expiry rather than hand out one about to lapse. */
const REFRESH_MARGIN_MS = 60_000;

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
  db: Knex;
  secretBox: SecretBox;
  repository?: CredentialsRepository;
  oauthRefresher?: OAuthTokenRefresher | null;
}) {
  const { db, secretBox } = deps;
  const repo = deps.repository ?? createCredentialsRepository(db);
  const refresher = deps.oauthRefresher ?? null;

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

  function sealInput(input: CredentialInput) {
    const secretSealed = secretBox.seal(input.secret);
    return {
      kind: input.kind,
      secret_sealed: secretSealed,
      refresh_token_sealed: input.refresh_token != null ? secretBox.seal(input.refresh_token) : null,
      expires_at: input.expires_at != null ? new Date(input.expires_at) : null,
      key_id: sealedKeyId(secretSealed),
      secret_tail: secretTail(input.secret),
    };
  }

  async function set(owner: CredentialOwner, agent: AgentId, input: CredentialInput): Promise<CredentialRow> {
    checkInput(agent, input);
    return repo.upsert(owner, agent, sealInput(input));
  }

  async function remove(owner: CredentialOwner, agent: AgentId): Promise<void> {
    if (!(await repo.delete(owner, agent))) throw notFound('Credential');
  }

  /** Hands out a usable token, refreshing an expiring OAuth token first when a refresher exists. */
  async function usable(row: CredentialRow): Promise<{ row: CredentialRow; secret: string }> {
    const expiring = row.kind === 'oauth_token' && row.expires_at !== null && row.expires_at.getTime() - Date.now() < REFRESH_MARGIN_MS;
    if (!expiring || !refresher || row.refresh_token_sealed === null) return { row, secret: secretBox.open(row.secret_sealed) };
    return db.transaction(async (trx) => {
      // The lock keeps two resolutions from spending the same (possibly single-use) refresh token.
      const locked = await trx('agent_credentials').where({ id: row.id }).forUpdate().first();
      if (!locked) return { row, secret: secretBox.open(row.secret_sealed) };
      const current = locked as CredentialRow;
      if (current.secret_sealed !== row.secret_sealed || current.refresh_token_sealed === null) {
        return { row: current, secret: secretBox.open(current.secret_sealed) };
      }
      const fresh = await refresher.refresh({ agent: row.agent, refreshToken: secretBox.open(current.refresh_token_sealed) });
      const secretSealed = secretBox.seal(fresh.accessToken);
      const write = {
        secret_sealed: secretSealed,
        refresh_token_sealed: fresh.refreshToken ? secretBox.seal(fresh.refreshToken) : current.refresh_token_sealed,
        expires_at: fresh.expiresAt ?? null,
        key_id: sealedKeyId(secretSealed),
        secret_tail: secretTail(fresh.accessToken),
      };
      await repo.reseal(row.id, write, trx);
      return { row: { ...current, ...write }, secret: fresh.accessToken };
    });
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

    /**
     * The credential a workspace or automation run uses (at create and again on wake): the
     * user's own if they have one, else the organization's; null when neither is set. Marks it used.
     */
    async resolveCredential(input: { organizationId: string; userId: string | null; agent: AgentId }): Promise<ResolvedCredential | null> {
      const found = await repo.findForResolution(input.organizationId, input.userId, input.agent);
      if (!found) return null;
      const { row, secret } = await usable(found);
      await repo.touch(row.id);
      return {
        source: row.user_id === null ? 'organization' : 'personal',
        kind: row.kind,
        secret,
        credentialId: row.id,
        expiresAt: row.expires_at,
      };
    },

    /** The organization's credential secret for an agent (for provider calls), or null. Marks it used. */
    async organizationSecret(organizationId: string, agent: AgentId): Promise<string | null> {
      const found = await repo.find({ organizationId, userId: null }, agent);
      if (!found) return null;
      const { row, secret } = await usable(found);
      await repo.touch(row.id);
      return secret;
    },

    /**
     * Re-seals every credential sealed with a key other than the active one (the first
     * configured key), in batches; returns how many rows it rewrote. Run after adding a new
     * key in front; the old key can be dropped from configuration once this returns.
     */
    async resealWithActiveKey(batchSize = 200): Promise<number> {
      const activeKeyId = sealedKeyId(secretBox.seal(''));
      let total = 0;
      for (;;) {
        const done = await db.transaction(async (trx) => {
          const rows = await repo.lockSealedWithOtherKey(activeKeyId, batchSize, trx);
          for (const row of rows) {
            await repo.reseal(
              row.id,
              {
                secret_sealed: secretBox.seal(secretBox.open(row.secret_sealed)),
                refresh_token_sealed: row.refresh_token_sealed === null ? null : secretBox.seal(secretBox.open(row.refresh_token_sealed)),
                key_id: activeKeyId,
              },
              trx,
            );
          }
          return rows.length;
        });
        total += done;
        if (done < batchSize) return total;
      }
    },
  };
}

function presence(agent: AgentId, row: CredentialRow | null): CredentialPresence {
  return { agent, scope: 'organization', configured: row !== null };
}

export type CredentialsService = ReturnType<typeof createCredentialsService>;
