/**
 * Which credential an agent turn (or a provider call) uses: a member's personal credential
 * wins over the organization's. An OAuth token about to expire is refreshed first when the
 * deployment plugs in a refresher. Shared by the API (model listings) and the worker (turns);
 * secrets leave their sealed form only here.
 */
import { credentialRowKey, sealedField } from '../crypto/sealedFields';
import type { SecretBox } from '../crypto/secretBox';
import type { Repositories } from '../db';
import type { CredentialRow } from '../db/credentialsRepository';
import { secretTail } from '../domain/credentialSecrets';
import type { AgentId, CredentialKind } from './catalog';

export type CredentialScope = 'organization' | 'personal';

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

/** What a user reads when an agent has no credential: the agent and how to add one. */
export const missingCredentialMessage = (agent: AgentId) =>
  `No ${agent} credential is configured for this workspace. Add one with POST /v1/organization/credentials/${agent} (for the organization) or POST /v1/user/credentials/${agent} (for yourself).`;

/** Refresh a token this close to its expiry rather than hand out one about to lapse. */
const REFRESH_MARGIN_MS = 60_000;

/** Where a credential's secret (or refresh token) is sealed: bound to its owner and agent. */
export function credentialFields(owner: { organizationId: string; userId: string | null }, agent: string) {
  const row = credentialRowKey(owner, agent);
  return { secret: sealedField('agent_credentials', 'secret_sealed', row), refreshToken: sealedField('agent_credentials', 'refresh_token_sealed', row) };
}

const fieldsOf = (row: CredentialRow) => credentialFields({ organizationId: row.organization_id, userId: row.user_id }, row.agent);

export function createCredentialResolver(deps: { repos: Pick<Repositories, 'transact' | 'credentials'>; secretBox: SecretBox; oauthRefresher?: OAuthTokenRefresher | null }) {
  const { secretBox } = deps;
  const { transact, credentials: repo } = deps.repos;
  const refresher = deps.oauthRefresher ?? null;

  /** Hands out a usable token, refreshing an expiring OAuth token first when a refresher exists. */
  async function usable(row: CredentialRow): Promise<{ row: CredentialRow; secret: string }> {
    const expiring = row.kind === 'oauth_token' && row.expires_at !== null && row.expires_at.getTime() - Date.now() < REFRESH_MARGIN_MS;
    const fields = fieldsOf(row);
    if (!expiring || !refresher || row.refresh_token_sealed === null) return { row, secret: secretBox.open(row.secret_sealed, fields.secret) };
    return transact(async (trx) => {
      // The lock keeps two resolutions from spending the same (possibly single-use) refresh token.
      const current = await repo.lock(row.id, trx);
      if (!current) return { row, secret: secretBox.open(row.secret_sealed, fields.secret) };
      if (current.secret_sealed !== row.secret_sealed || current.refresh_token_sealed === null) {
        return { row: current, secret: secretBox.open(current.secret_sealed, fields.secret) };
      }
      const fresh = await refresher.refresh({ agent: row.agent, refreshToken: secretBox.open(current.refresh_token_sealed, fields.refreshToken) });
      const write = {
        secret_sealed: secretBox.seal(fresh.accessToken, fields.secret),
        refresh_token_sealed: fresh.refreshToken ? secretBox.seal(fresh.refreshToken, fields.refreshToken) : current.refresh_token_sealed,
        expires_at: fresh.expiresAt ?? null,
        key_id: secretBox.activeKeyId,
        secret_tail: secretTail(fresh.accessToken),
      };
      await repo.reseal(row.id, write, trx);
      return { row: { ...current, ...write }, secret: fresh.accessToken };
    });
  }

  return {
    /** Whether a run of `agent` for this owner has a credential (personal or the organization's). */
    async hasCredential(input: { organizationId: string; userId: string | null; agent: AgentId }): Promise<boolean> {
      return (await repo.findForResolution(input.organizationId, input.userId, input.agent)) !== null;
    },

    /** The credential a run of `agent` for this owner uses (personal first), marked used; null when none. */
    async resolveCredential(input: { organizationId: string; userId: string | null; agent: AgentId }): Promise<ResolvedCredential | null> {
      const found = await repo.findForResolution(input.organizationId, input.userId, input.agent);
      if (!found) return null;
      const { row, secret } = await usable(found);
      await repo.touch(row.id);
      return { source: row.user_id === null ? 'organization' : 'personal', kind: row.kind, secret, credentialId: row.id, expiresAt: row.expires_at };
    },

    /** The organization's credential secret for an agent (for provider calls), or null. Marks it used. */
    async organizationSecret(organizationId: string, agent: AgentId): Promise<string | null> {
      const found = await repo.find({ organizationId, userId: null }, agent);
      if (!found) return null;
      const { row, secret } = await usable(found);
      await repo.touch(row.id);
      return secret;
    },
  };
}

export type CredentialResolver = ReturnType<typeof createCredentialResolver>;
