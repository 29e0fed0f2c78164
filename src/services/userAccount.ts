/**
 * The caller's own account: their profile, their personal API keys, and (for admins) the
 * organization's API keys. Secrets are generated here, returned once and never stored; a
 * revoked key fails on its next request, in every API process (identity.ts tells their caches).
 */
import type { Repositories } from '../db';
import type { ApiKeyOwner, ApiKeySummary, UserRow } from '../db/identityRepository';
import { forbidden, notFound } from '../domain/errors';
import type { Actor } from '../domain/actor';
import type { UpdateProfileInput } from '../schemas/account';
import type { IdentityService } from './identity';

/** The body's own type, derived from its schema (src/schemas/account.ts). */
export type { UpdateProfileInput };

export interface Paging {
  page: number;
  limit: number;
}

export function serializeProfile(user: UserRow) {
  return { userId: user.id, email: user.email, displayName: user.display_name, avatarUrl: user.avatar_url };
}

export function serializeApiKey(key: ApiKeySummary) {
  return {
    id: key.id,
    name: key.name,
    prefix: key.display_prefix,
    created_at: key.created_at.toISOString(),
    last_used_at: key.last_used_at ? key.last_used_at.toISOString() : null,
  };
}

/** The caller's user; an org key acts for the organization and has none. */
function userOf(actor: Actor): string {
  if (actor.userId === null) {
    throw forbidden('Organization API keys have no user', 'profile and personal API keys need a personal API key');
  }
  return actor.userId;
}

function personalKeys(actor: Actor): ApiKeyOwner {
  return { organizationId: actor.organizationId, kind: 'personal', userId: userOf(actor) };
}

function organizationKeys(actor: Actor): ApiKeyOwner {
  if (!actor.isAdmin) throw forbidden('Only organization admins manage organization API keys');
  return { organizationId: actor.organizationId, kind: 'org' };
}

export function createUserAccountService(deps: { repos: Pick<Repositories, 'identity'>; identity: Pick<IdentityService, 'createKey' | 'revokeKey'> }) {
  const repo = deps.repos.identity;

  /** Each key records the key that created it. */
  async function createKey(actor: Actor, owner: ApiKeyOwner, name: string) {
    const { row, secret } = await deps.identity.createKey({
      organizationId: owner.organizationId,
      userId: owner.kind === 'personal' ? owner.userId : null,
      kind: owner.kind,
      name: name.trim(),
      createdByKeyId: actor.keyId,
    });
    return { ...serializeApiKey(row), key: secret };
  }

  async function listKeys(owner: ApiKeyOwner, paging: Paging) {
    const { rows, total } = await repo.listActiveApiKeys(owner, { limit: paging.limit, offset: (paging.page - 1) * paging.limit });
    return { rows: rows.map(serializeApiKey), total };
  }

  /** Missing, already revoked and someone else's all look the same: 404. */
  async function revokeKey(actor: Actor, owner: ApiKeyOwner, id: string) {
    if (!(await deps.identity.revokeKey(owner, id, actor.keyId))) throw notFound('API key');
  }

  return {
    async getProfile(actor: Actor) {
      const user = await repo.findUser(actor.organizationId, userOf(actor));
      if (!user) throw notFound('User');
      return serializeProfile(user);
    },

    async updateProfile(actor: Actor, input: UpdateProfileInput) {
      const user = await repo.updateUserProfile(actor.organizationId, userOf(actor), {
        displayName: input.displayName?.trim(),
        avatarUrl: input.avatarUrl,
      });
      if (!user) throw notFound('User');
      return serializeProfile(user);
    },

    createPersonalKey: async (actor: Actor, name: string) => createKey(actor, personalKeys(actor), name),
    listPersonalKeys: async (actor: Actor, paging: Paging) => listKeys(personalKeys(actor), paging),
    revokePersonalKey: async (actor: Actor, id: string) => revokeKey(actor, personalKeys(actor), id),

    createOrganizationKey: async (actor: Actor, name: string) => createKey(actor, organizationKeys(actor), name),
    listOrganizationKeys: async (actor: Actor, paging: Paging) => listKeys(organizationKeys(actor), paging),
    revokeOrganizationKey: async (actor: Actor, id: string) => revokeKey(actor, organizationKeys(actor), id),
  };
}

export type UserAccountService = ReturnType<typeof createUserAccountService>;
