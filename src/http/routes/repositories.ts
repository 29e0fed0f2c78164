import type { RepositoriesRepository, RepositoryRow } from '../../db/repositoriesRepository';
import { object, uuid } from '../../schemas/common';
import { defineRoute, type Route } from '../route';

const repositorySchema = object(
  { id: uuid, name: { type: 'string' }, url: { type: 'string' }, default_branch: { type: 'string' } },
  ['id', 'name', 'url', 'default_branch'],
);

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
      response: {
        status: 200,
        description: 'Repositories',
        schema: object({ repositories: { type: 'array', items: repositorySchema } }, ['repositories']),
      },
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
      response: {
        status: 200,
        description: 'Repository sets',
        schema: object(
          {
            repository_sets: {
              type: 'array',
              items: object(
                {
                  id: uuid,
                  name: { type: 'string' },
                  description: { type: ['string', 'null'] },
                  repositories: { type: 'array', items: repositorySchema },
                },
                ['id', 'name', 'description', 'repositories'],
              ),
            },
          },
          ['repository_sets'],
        ),
      },
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
