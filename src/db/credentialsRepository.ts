import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { AgentId, CredentialKind } from '../agents/catalog';

export interface CredentialRow {
  id: string;
  organization_id: string;
  user_id: string | null;
  agent: AgentId;
  kind: CredentialKind;
  secret_sealed: string;
  refresh_token_sealed: string | null;
  expires_at: Date | null;
  key_id: string;
  secret_tail: string;
  created_at: Date;
  updated_at: Date;
  last_used_at: Date | null;
}

/** An organization's credential (`userId: null`) or one user's personal credential. */
export interface CredentialOwner {
  organizationId: string;
  userId: string | null;
}

export type CredentialWrite = Pick<CredentialRow, 'kind' | 'secret_sealed' | 'refresh_token_sealed' | 'expires_at' | 'key_id' | 'secret_tail'>;

function owned(query: Knex.QueryBuilder, owner: CredentialOwner): Knex.QueryBuilder {
  query.where('organization_id', owner.organizationId);
  return owner.userId === null ? query.whereNull('user_id') : query.where('user_id', owner.userId);
}

export function createCredentialsRepository(db: Knex) {
  return {
    async find(owner: CredentialOwner, agent: AgentId, trx: Knex = db): Promise<CredentialRow | null> {
      return (await owned(trx('agent_credentials'), owner).where({ agent }).first()) ?? null;
    },

    async listFor(owner: CredentialOwner, trx: Knex = db): Promise<CredentialRow[]> {
      return owned(trx('agent_credentials'), owner).select('*');
    },

    /** Personal first, then the organization's: the first row is the one a run uses. */
    async findForResolution(organizationId: string, userId: string | null, agent: AgentId, trx: Knex = db): Promise<CredentialRow | null> {
      const row = await trx('agent_credentials')
        .where({ organization_id: organizationId, agent })
        .where((q) => {
          q.whereNull('user_id');
          if (userId) q.orWhere('user_id', userId);
        })
        .orderByRaw('user_id IS NULL')
        .first();
      return row ?? null;
    },

    /** Sets the owner's credential for an agent, replacing any earlier one. */
    async upsert(owner: CredentialOwner, agent: AgentId, write: CredentialWrite, trx: Knex = db): Promise<CredentialRow> {
      const target = owner.userId === null ? '(organization_id, agent) WHERE user_id IS NULL' : '(organization_id, user_id, agent) WHERE user_id IS NOT NULL';
      const { rows } = await trx.raw(
        `INSERT INTO agent_credentials
           (id, organization_id, user_id, agent, kind, secret_sealed, refresh_token_sealed, expires_at, key_id, secret_tail)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT ${target} DO UPDATE SET
           kind = EXCLUDED.kind, secret_sealed = EXCLUDED.secret_sealed,
           refresh_token_sealed = EXCLUDED.refresh_token_sealed, expires_at = EXCLUDED.expires_at,
           key_id = EXCLUDED.key_id, secret_tail = EXCLUDED.secret_tail,
           updated_at = now(), last_used_at = NULL
         RETURNING *`,
        [
          randomUUID(),
          owner.organizationId,
          owner.userId,
          agent,
          write.kind,
          write.secret_sealed,
          write.refresh_token_sealed,
          write.expires_at,
          write.key_id,
          write.secret_tail,
        ],
      );
      return rows[0];
    },

    async delete(owner: CredentialOwner, agent: AgentId, trx: Knex = db): Promise<boolean> {
      return (await owned(trx('agent_credentials'), owner).where({ agent }).delete()) > 0;
    },

    /** Locks one row by id for the rest of `trx`. */
    async lock(id: string, trx: Knex): Promise<CredentialRow | null> {
      return (await trx('agent_credentials').where({ id }).forUpdate().first()) ?? null;
    },

    async touch(id: string, trx: Knex = db): Promise<void> {
      await trx('agent_credentials').where({ id }).update({ last_used_at: trx.fn.now() });
    },

    /** Rewrites one row's sealed values (a token refresh) without touching its identity. */
    async reseal(
      id: string,
      write: Pick<CredentialWrite, 'secret_sealed' | 'refresh_token_sealed' | 'key_id'> & Partial<Pick<CredentialWrite, 'expires_at' | 'secret_tail'>>,
      trx: Knex = db,
    ): Promise<void> {
      await trx('agent_credentials').where({ id }).update(write);
    },
  };
}

export type CredentialsRepository = ReturnType<typeof createCredentialsRepository>;
