import type { RepositoriesRepository, RepositoryRow } from '../../db/repositoriesRepository';
import { repositoryListSchema, repositorySetListSchema } from '../../schemas/repositories';
import { defineRoute, type Route } from '../route';

const serialize = (r: RepositoryRow) => ({ id: r.id, name: r.name, url: r.url, default_branch: r.default_branch });

export function repositoryRoutes(repositories: RepositoriesRepository): Route[] {
  return [
    defineRoute({
      method: 'get',
      path: '/v1/replica/repositories',
      operationId: 'listRepositories',
      summary: "List the organization's connected repositories",
      tag: 'Repository',
      auth: 'apiKey',
      response: { status: 200, description: 'Repositories', schema: repositoryListSchema },
      errors: [401],
      handler: async ({ actor }) => ({ repositories: (await repositories.list(actor.organizationId)).map(serialize) }),
    }),
    defineRoute({
      method: 'get',
      path: '/v1/replica/repository-sets',
      operationId: 'listRepositorySets',
      summary: "List the organization's repository sets",
      tag: 'Repository',
      auth: 'apiKey',
      response: { status: 200, description: 'Repository sets', schema: repositorySetListSchema },
      errors: [401],
      handler: async ({ actor }) => ({
        repository_sets: (await repositories.listSets(actor.organizationId)).map((s) => ({
          id: s.id,
          name: s.name,
          description: s.description,
          repositories: s.repositories.map(serialize),
        })),
      }),
    }),
  ];
}
