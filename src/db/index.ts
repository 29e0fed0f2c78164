/**
 * Every repository over one knex handle. Code above `src/db` receives this bundle (or a `Pick`
 * of it) and never the handle itself; a use case that writes through several repositories runs
 * them in one `transact` call and passes the transaction to each method.
 */
import type { Knex } from 'knex';
import { createAiGatewayUsageRepository } from './aiGatewayUsageRepository';
import { createAnalyticsRepository } from './analyticsRepository';
import { createAutomationExecutionsRepository } from './automationExecutionsRepository';
import { createAutomationInboxRepository } from './automationInboxRepository';
import { createAutomationsRepository } from './automationsRepository';
import { createConnectionsRepository } from './connectionsRepository';
import { createCredentialsRepository } from './credentialsRepository';
import { createEnvironmentResourcesRepository } from './environmentResourcesRepository';
import { createEnvironmentsRepository } from './environmentsRepository';
import { createHooksRepository } from './hooksRepository';
import { createIdentityRepository } from './identityRepository';
import { createIntegrationThreadsRepository } from './integrationThreadsRepository';
import { pingDatabase } from './knex';
import { createModelCatalogRepository } from './modelCatalogRepository';
import { createMetricsRepository } from './metricsRepository';
import { createOrganizationSettingsRepository } from './organizationSettingsRepository';
import { createReplicaChatsRepository } from './replicaChatsRepository';
import { createReplicaEventsRepository } from './replicaEventsRepository';
import { createReplicaLogsRepository } from './replicaLogsRepository';
import { createReplicaMessagesRepository } from './replicaMessagesRepository';
import { createReplicasRepository } from './replicasRepository';
import { createRepositoriesRepository } from './repositoriesRepository';
import { createTerminalSessionsRepository } from './terminalSessionsRepository';
import type { Transaction } from './transaction';
import { createWarmPoolsRepository } from './warmPoolsRepository';
import { createSkillsRegistriesRepository } from './skillsRegistriesRepository';
import { createMediaRepository } from './mediaRepository';
import { createPreviewsRepository } from './previewsRepository';
import { createPluginsRepository } from './pluginsRepository';
import { createSealedValuesRepository } from './sealedValuesRepository';
import { createWorkerHostsRepository } from './workerHostsRepository';

export function createRepositories(knex: Knex) {
  return {
    transact: <T>(work: (trx: Transaction) => Promise<T>): Promise<T> => knex.transaction(work),
    ping: () => pingDatabase(knex),
    automations: createAutomationsRepository(knex),
    automationExecutions: createAutomationExecutionsRepository(knex),
    automationInbox: createAutomationInboxRepository(knex),
    codeRepositories: createRepositoriesRepository(knex),
    connections: createConnectionsRepository(knex),
    credentials: createCredentialsRepository(knex),
    environments: createEnvironmentsRepository(knex),
    environmentResources: createEnvironmentResourcesRepository(knex),
    identity: createIdentityRepository(knex),
    integrationThreads: createIntegrationThreadsRepository(knex),
    modelCatalog: createModelCatalogRepository(knex),
    metrics: createMetricsRepository(knex),
    organizationSettings: createOrganizationSettingsRepository(knex),
    replicas: createReplicasRepository(knex),
    replicaChats: createReplicaChatsRepository(knex),
    replicaMessages: createReplicaMessagesRepository(knex),
    replicaEvents: createReplicaEventsRepository(knex),
    replicaLogs: createReplicaLogsRepository(knex),
    terminalSessions: createTerminalSessionsRepository(knex),
    hooks: createHooksRepository(knex),
    warmPools: createWarmPoolsRepository(knex),
    aiGatewayUsage: createAiGatewayUsageRepository(knex),
    skillsRegistries: createSkillsRegistriesRepository(knex),
    media: createMediaRepository(knex),
    analytics: createAnalyticsRepository(knex),
    previews: createPreviewsRepository(knex),
    plugins: createPluginsRepository(knex),
    sealedValues: createSealedValuesRepository(knex),
    workerHosts: createWorkerHostsRepository(knex),
  };
}

export type Repositories = ReturnType<typeof createRepositories>;
export type { Transaction } from './transaction';
