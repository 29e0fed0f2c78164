/** Builds every service over one database handle; the composition roots call this once. */
import type { Knex } from 'knex';
import type { SecretBox } from '../crypto/secretBox';
import { createEnvironmentsRepository } from '../db/environmentsRepository';
import { createIdentityRepository } from '../db/identityRepository';
import { createRepositoriesRepository } from '../db/repositoriesRepository';
import type { TemporalGateway } from '../temporal/gateway';
import { createEnvironmentResourcesService } from './environmentResources';
import { createEnvironmentsService } from './environments';
import { createHooksService } from './hooks';
import { createIdentityService } from './identity';
import { createResolutionService } from './resolution';

export function createServices(deps: { db: Knex; secretBox: SecretBox; temporal: TemporalGateway }) {
  const { db, secretBox, temporal } = deps;
  const repositories = createRepositoriesRepository(db);
  const environmentsRepo = createEnvironmentsRepository(db);
  const identity = createIdentityService(db, createIdentityRepository(db));
  const environments = createEnvironmentsService({ db, environments: environmentsRepo, repositories });
  return {
    identity,
    repositories,
    environments,
    environmentResources: createEnvironmentResourcesService({ db, secretBox, environments, environmentsRepo }),
    hooks: createHooksService({ db, environments, temporal }),
    resolution: createResolutionService({ db, secretBox }),
  };
}

export type Services = ReturnType<typeof createServices>;
