/**
 * Operator actions behind `hangar admin ...`, the dev seed and test fixtures: they write
 * through the repositories directly, since they create what API keys are checked against.
 */
import type { ApiKeyKind } from '../crypto/apiKeys';
import type { EncryptionKey } from '../config';
import { createLookupHashes } from '../crypto/lookupHashes';
import { createSecretBox } from '../crypto/secretBox';
import type { Repositories } from '../db';
import { createEncryptionRotation, type RotationOptions, type RotationReport } from '../services/encryptionRotation';
import { createIdentityService } from '../services/identity';

export interface CreatedOrganization {
  organization_id: string;
  global_environment_id: string;
  org_api_key: string;
  admin: { user_id: string; email: string; personal_api_key: string };
}

export function createAdmin(repos: Pick<Repositories, 'transact' | 'identity' | 'environments' | 'codeRepositories' | 'sealedValues'>) {
  const { transact, identity: identityRepo, environments, codeRepositories: repositories } = repos;
  const identity = createIdentityService(repos);

  return {
    async createOrganization(input: { name: string; adminEmail?: string; adminName?: string }): Promise<CreatedOrganization> {
      return transact(async (trx) => {
        const org = await identityRepo.insertOrganization(input.name, trx);
        const global = await environments.ensureGlobal(org.id, trx);
        const admin = await identityRepo.insertUser(
          { organizationId: org.id, email: input.adminEmail ?? 'admin@example.com', displayName: input.adminName ?? 'Admin', role: 'admin' },
          trx,
        );
        const orgKey = await identity.createKey({ organizationId: org.id, userId: null, kind: 'org', name: 'default' }, trx);
        const personalKey = await identity.createKey({ organizationId: org.id, userId: admin.id, kind: 'personal', name: 'default' }, trx);
        return {
          organization_id: org.id,
          global_environment_id: global.id,
          org_api_key: orgKey.secret,
          admin: { user_id: admin.id, email: admin.email, personal_api_key: personalKey.secret },
        };
      });
    },

    async createUser(input: { organizationId: string; email: string; displayName?: string; role?: 'admin' | 'member' }) {
      return transact(async (trx) => {
        if (!(await identityRepo.findOrganization(input.organizationId, trx))) throw new Error('organization not found');
        const user = await identityRepo.insertUser(
          { organizationId: input.organizationId, email: input.email, displayName: input.displayName ?? input.email, role: input.role ?? 'member' },
          trx,
        );
        const key = await identity.createKey({ organizationId: input.organizationId, userId: user.id, kind: 'personal', name: 'default' }, trx);
        return { user_id: user.id, email: user.email, role: user.role, personal_api_key: key.secret };
      });
    },

    async createKey(input: { organizationId: string; kind: ApiKeyKind; userId?: string; name?: string }) {
      if (input.kind === 'personal' && !input.userId) throw new Error('a personal key needs --user');
      if (!(await identityRepo.findOrganization(input.organizationId))) throw new Error('organization not found');
      if (input.userId && !(await identityRepo.findUser(input.organizationId, input.userId))) throw new Error('user not found in this organization');
      const key = await identity.createKey({
        organizationId: input.organizationId,
        userId: input.kind === 'personal' ? input.userId! : null,
        kind: input.kind,
        name: input.name ?? 'cli',
      });
      return { key_id: key.id, kind: input.kind, api_key: key.secret };
    },

    async addRepository(input: { organizationId: string; url: string; name?: string; defaultBranch?: string }) {
      const name = input.name ?? input.url.replace(/\/+$/, '').split(/[/:]/).pop()!.replace(/\.git$/, '');
      const row = await repositories.insert({ organizationId: input.organizationId, url: input.url, name, defaultBranch: input.defaultBranch ?? 'main' });
      return { id: row.id, name: row.name, url: row.url, default_branch: row.default_branch };
    },

    async addRepositorySet(input: { organizationId: string; name: string; description?: string; repositoryIds: string[] }) {
      return transact(async (trx) => {
        const found = await repositories.findMany(input.organizationId, input.repositoryIds, trx);
        const missing = input.repositoryIds.filter((id) => !found.some((r) => r.id === id));
        if (missing.length > 0) throw new Error(`repositories not found in this organization: ${missing.join(', ')}`);
        const set = await repositories.insertSet(
          { organizationId: input.organizationId, name: input.name, description: input.description ?? null, repositoryIds: input.repositoryIds },
          trx,
        );
        return { id: set.id, name: set.name, description: set.description, repository_ids: input.repositoryIds };
      });
    },

    /**
     * Re-seals every sealed column under the active (first) of `keys`, as v2 bound to its row,
     * and makes keyed hashes again under it; safe while the service runs, and again after an
     * interruption.
     */
    async rotateEncryptionKey(keys: EncryptionKey[], options: RotationOptions = {}): Promise<RotationReport> {
      return createEncryptionRotation({ repos, secretBox: createSecretBox(keys), lookupHashes: createLookupHashes(keys) }).rotate(options);
    },
  };
}

export type Admin = ReturnType<typeof createAdmin>;
