/** The organization's connected repositories and repository sets. */
import { object, uuid } from './common';

const repositorySchema = object(
  { id: uuid, name: { type: 'string' }, url: { type: 'string' }, default_branch: { type: 'string' } },
  ['id', 'name', 'url', 'default_branch'],
);

export const repositoryListSchema = object({ repositories: { type: 'array', items: repositorySchema } }, ['repositories']);

export const repositorySetListSchema = object(
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
);
