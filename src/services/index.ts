/** Builds every service over one database handle; the composition roots call this once. */
import type { Knex } from 'knex';
import type { Config } from '../config';
import type { SecretBox } from '../crypto/secretBox';
import { createEnvironmentsRepository } from '../db/environmentsRepository';
import { createIdentityRepository } from '../db/identityRepository';
import { createRepositoriesRepository } from '../db/repositoriesRepository';
import type { EventBus } from '../events/bus';
import { createReplicaEventEmitter } from '../events/replicaEvents';
import type { Logger } from '../logger';
import type { TemporalGateway } from '../temporal/gateway';
import { automationEnvironmentReferenceCheck, createAutomationsService } from './automations';
import { createAutomationInbox } from './automations/inbox';
import { AUTOMATIONS_CHANGED_CHANNEL, createAutomationIntake } from './automations/intake';
import { createCredentialsService } from './credentials';
import { createModelCatalogService } from './modelCatalog';
import { createOrganizationSettingsService } from './organizationSettings';
import { createReplicaActivityService } from './replicaActivity';
import { createReplicasService } from './replicas';
import { createUserAccountService } from './userAccount';
import { createEnvironmentResourcesService } from './environmentResources';
import { createEnvironmentsService } from './environments';
import { createHooksService } from './hooks';
import { createIdentityService } from './identity';
import { createResolutionService } from './resolution';

export function createServices(deps: { db: Knex; bus: EventBus; secretBox: SecretBox; temporal: TemporalGateway; config: Config; logger: Logger }) {
  const { db, bus, secretBox, temporal, config, logger } = deps;
  const events = createReplicaEventEmitter(db, bus);
  const repositories = createRepositoriesRepository(db);
  const environmentsRepo = createEnvironmentsRepository(db);
  const identity = createIdentityService(db, createIdentityRepository(db));
  const organizationSettings = createOrganizationSettingsService({ db });
  const environments = createEnvironmentsService({
    db,
    environments: environmentsRepo,
    repositories,
    referenceChecks: [organizationSettings.environmentReferenceCheck, automationEnvironmentReferenceCheck],
  });
  const credentials = createCredentialsService({ db, secretBox });
  const modelCatalog = createModelCatalogService({
    db,
    config,
    logger: logger.child({ component: 'model-catalog' }),
    organizationSecret: (organizationId, agent) => credentials.organizationSecret(organizationId, agent),
  });
  const automationIntake = createAutomationIntake({
    db,
    inbox: createAutomationInbox({ db, temporal, logger: logger.child({ component: 'automation-inbox' }) }),
    bus,
    github: config.github,
    gitlab: config.gitlab,
    logger: logger.child({ component: 'automation-webhooks' }),
  });
  return {
    identity,
    repositories,
    environments,
    environmentResources: createEnvironmentResourcesService({ db, secretBox, environments, environmentsRepo }),
    hooks: createHooksService({ db, environments, temporal, warmPoolSize: config.warmPoolSize }),
    resolution: createResolutionService({ db, secretBox }),
    credentials,
    organizationSettings,
    modelCatalog,
    events,
    replicaActivity: createReplicaActivityService({
      db,
      events,
      bus,
      wake: async (replicaId) => void (await temporal.requestLifecycle(replicaId, 'wake')),
    }),
    replicas: createReplicasService({
      db,
      secretBox,
      temporal,
      events,
      environments,
      repositories,
      policy: {
        resolveAgentAndModel: (organizationId, requested) => organizationSettings.resolveAgentAndModel(organizationId, requested),
        isModelAllowed: (organizationId, agent, model) => modelCatalog.isModelAllowed(organizationId, agent, model),
        defaultEnvironmentId: async (organizationId) => (await organizationSettings.forOrganization(organizationId)).default_environment_id,
      },
      timings: { idleMs: config.workspaceIdleMs, archiveAfterMs: config.workspaceArchiveAfterMs, historyLimit: config.workspaceHistoryLimit },
    }),
    userAccount: createUserAccountService({ db, identity }),
    automations: createAutomationsService({
      db,
      secretBox,
      temporal,
      isModelAllowed: (organizationId, agent, model) => modelCatalog.isModelAllowed(organizationId, agent, model),
      onChanged: async () => {
        automationIntake.invalidateRoutes();
        try {
          await bus.publish(AUTOMATIONS_CHANGED_CHANNEL, '');
        } catch (err) {
          logger.warn('could not announce an automation change', { err });
        }
      },
    }),
    automationIntake,
  };
}

export type Services = ReturnType<typeof createServices>;
