import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';

export interface RepositoryRow {
  id: string;
  organization_id: string;
  name: string;
  url: string;
  default_branch: string;
  created_at: Date;
}

export interface RepositorySetRow {
  id: string;
  organization_id: string;
  name: string;
  description: string | null;
  created_at: Date;
}

export function createRepositoriesRepository(db: Knex) {
  return {
    async insert(repo: { organizationId: string; name: string; url: string; defaultBranch: string }, trx: Knex = db): Promise<RepositoryRow> {
      const [row] = await trx('repositories')
        .insert({ id: randomUUID(), organization_id: repo.organizationId, name: repo.name, url: repo.url, default_branch: repo.defaultBranch })
        .returning('*');
      return row;
    },

    async insertSet(
      set: { organizationId: string; name: string; description: string | null; repositoryIds: string[] },
      trx: Knex = db,
    ): Promise<RepositorySetRow> {
      const [row] = await trx('repository_sets')
        .insert({ id: randomUUID(), organization_id: set.organizationId, name: set.name, description: set.description })
        .returning('*');
      if (set.repositoryIds.length > 0) {
        await trx('repository_set_members').insert(
          set.repositoryIds.map((repository_id, position) => ({ repository_set_id: row.id, repository_id, position })),
        );
      }
      return row;
    },

    /** The repositories an environment is bound to (one, a set's, or none), as a workspace snapshots them. */
    async boundTo(organizationId: string, env: { repository_id: string | null; repository_set_id: string | null }, trx: Knex = db): Promise<RepositoryRow[]> {
      if (env.repository_id) {
        const repo = await this.find(organizationId, env.repository_id, trx);
        return repo ? [repo] : [];
      }
      if (!env.repository_set_id) return [];
      const set = (await this.listSets(organizationId, trx)).find((s) => s.id === env.repository_set_id);
      return set?.repositories ?? [];
    },

    async find(organizationId: string, id: string, trx: Knex = db): Promise<RepositoryRow | null> {
      return (await trx('repositories').where({ organization_id: organizationId, id }).first()) ?? null;
    },

    async findMany(organizationId: string, ids: string[], trx: Knex = db): Promise<RepositoryRow[]> {
      return trx('repositories').where({ organization_id: organizationId }).whereIn('id', ids);
    },

    async findSet(organizationId: string, id: string, trx: Knex = db): Promise<RepositorySetRow | null> {
      return (await trx('repository_sets').where({ organization_id: organizationId, id }).first()) ?? null;
    },

    /**
     * Connected repositories of any organization whose url contains `name` ("owner/repo", any
     * case): a delivery's candidates, which the caller matches on the normalised url.
     */
    async withUrlContaining(name: string, trx: Knex = db): Promise<RepositoryRow[]> {
      const pattern = `%${name.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      return trx('repositories').whereRaw("lower(url) LIKE ? ESCAPE '\\'", [pattern]).orderBy('created_at');
    },

    async list(organizationId: string, trx: Knex = db): Promise<RepositoryRow[]> {
      return trx('repositories').where({ organization_id: organizationId }).orderBy([{ column: 'name' }, { column: 'id' }]);
    },

    async listSets(organizationId: string, trx: Knex = db): Promise<Array<RepositorySetRow & { repositories: RepositoryRow[] }>> {
      const sets: RepositorySetRow[] = await trx('repository_sets')
        .where({ organization_id: organizationId })
        .orderBy([{ column: 'name' }, { column: 'id' }]);
      if (sets.length === 0) return [];
      const members: Array<RepositoryRow & { repository_set_id: string }> = await trx('repository_set_members as m')
        .join('repositories as r', 'r.id', 'm.repository_id')
        .whereIn(
          'm.repository_set_id',
          sets.map((s) => s.id),
        )
        .orderBy('m.position')
        .select('r.*', 'm.repository_set_id');
      return sets.map((set) => ({
        ...set,
        repositories: members
          .filter((m) => m.repository_set_id === set.id)
          .map(({ repository_set_id: _ignored, ...repo }) => repo),
      }));
    },
  };
}

export type RepositoriesRepository = ReturnType<typeof createRepositoriesRepository>;
