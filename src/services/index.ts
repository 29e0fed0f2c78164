/** Builds every service over one database handle; the composition roots call this once. */
import type { Knex } from 'knex';
import type { Config } from '../config';
import type { SecretBox } from '../crypto/secretBox';
import { createEnvironmentsRepository } from '../db/environmentsRepository';
import { createIdentityRepository } from '../db/identityRepository';
import { createRepositoriesRepository } from '../db/repositoriesRepository';
import type { Logger } from '../logger';
import type { TemporalGateway } from '../temporal/gateway';
import { createCredentialsService } from './credentials';
import { createModelCatalogService } from './modelCatalog';
import { createOrganizationSettingsService } from './organizationSettings';
import { createUserAccountService } from './userAccount';
import { createEnvironmentResourcesService } from './environmentResources';
import { createEnvironmentsService } from './environments';
import { createHooksService } from './hooks';
import { createIdentityService } from './identity';
import { createResolutionService } from './resolution';

export function createServices(deps: { db: Knex; secretBox: SecretBox; temporal: TemporalGateway; config: Config; logger: Logger }) {
  const { db, secretBox, temporal, config, logger } = deps;
  const repositories = createRepositoriesRepository(db);
  const environmentsRepo = createEnvironmentsRepository(db);
  const identity = createIdentityService(db, createIdentityRepository(db));
  const environments = createEnvironmentsService({ db, environments: environmentsRepo, repositories });
  const credentials = createCredentialsService({ db, secretBox });
  return {
    identity,
    repositories,
    environments,
    environmentResources: createEnvironmentResourcesService({ db, secretBox, environments, environmentsRepo }),
    hooks: createHooksService({ db, environments, temporal }),
    resolution: createResolutionService({ db, secretBox }),
    credentials,
    organizationSettings: createOrganizationSettingsService({ db, environments }),
    modelCatalog: createModelCatalogService({
      db,
      config,
      logger: logger.child({ component: 'model-catalog' }),
      organizationSecret: (organizationId, agent) => credentials.organizationSecret(organizationId, agent),
    }),
    userAccount: createUserAccountService({ db, identity }),
  };
}

export type Services = ReturnType<typeof createServices>;
