/** Builds every API use case over the repositories; the API's composition calls this once. */
import { createOutboundPolicy } from '../integrations/outbound/addressGuard';
import type { Config } from '../config';
import type { SecretBox } from '../crypto/secretBox';
import type { Repositories } from '../db';
import type { EventBus } from '../events/bus';
import { createReplicaEventEmitter } from '../events/replicaEvents';
import type { Logger } from '../logger';
import type { WorkflowControl } from '../temporal/workflowControl';
import type { TerminalClient } from '../terminals/client';
import { createAiGateway } from '../gateway';
import { automationEnvironmentReferenceCheck, createAutomationsService } from './automations';
import { createAutomationInbox } from './automations/inbox';
import { AUTOMATIONS_CHANGED_CHANNEL, createAutomationIntake } from './receivers/automationWebhooks';
import { createConnectionsService } from './connections';
import { createThreadDispatcher } from './receivers/threads';
import { createSlackServices } from './receivers/slackServices';
import { createCodeHostingThreads } from './receivers/codeHostingThreads';
import { createCredentialsService } from './credentials';
import { createModelCatalogService } from './modelCatalog';
import { createOrganizationSettingsService } from './organizationSettings';
import { createReplicasService } from './replicas';
import { createUserAccountService } from './userAccount';
import { createEnvironmentResourcesService } from './environmentResources';
import { createRepoSkillsService } from './environmentResources/repoSkills';
import { createGithubContentsClient } from '../integrations/github/contents';
import { createGithubPullRequestReader } from '../integrations/github/pulls';
import { createEnvironmentsService } from './environments';
import { createHooksService } from './hooks';
import { createIdentityService } from './identity';
import { openApiKeyCache } from './apiKeyCache';
import { createTerminalService } from './terminals';
import { createDownloadsService } from './downloads';
import { createReleaseStore } from '../releases/store';
import { createSignedLinks } from '../crypto/signedLinks';
import { createLookupHashes } from '../crypto/lookupHashes';
import { createGitlabSenders } from './receivers/gitlabSenders';
import { createSkillsRegistriesService } from './environmentResources/skillsRegistries';
import { createGithubRepositoryReader } from '../integrations/github/skillsRegistry';
import { createWarmPoolStreamService } from './warmPoolStream';
import { createMediaService } from './media';
import { createBlobStore } from '../storage';
import { createAnalyticsService } from './analytics';
import { createPreviewsService } from './previews';
import { createRelayGrants } from '../previews/relayGrants';
import { pluginsFromConfig } from './plugins';
import { createPresenceService } from './presence';
import { openPresenceStore } from '../presence';
import { createSentryIntake } from './receivers/sentry';
import { createLinearReceiver } from './receivers/linear';

export function createServices(deps: { repos: Repositories; bus: EventBus; secretBox: SecretBox; temporal: WorkflowControl; terminalClient: TerminalClient; config: Config; logger: Logger }) {
  const { repos, bus, secretBox, temporal, config, logger } = deps;
  const events = createReplicaEventEmitter(repos.replicaEvents, bus);
  const repositories = repos.codeRepositories;
  const blobs = createBlobStore(config);
  const links = createSignedLinks(config.encryptionKeys);
  const lookupHashes = createLookupHashes(config.encryptionKeys);
  const outbound = createOutboundPolicy(config.outboundAllow);
  const githubContents = createGithubContentsClient({ apiUrl: config.github.apiUrl, token: config.github.token });
  // Verified keys answered from memory; close() ends its bus connections.
  const identity = createIdentityService(repos, { cache: openApiKeyCache(config, bus, logger) });
  const organizationSettings = createOrganizationSettingsService({ repos });
  const environments = createEnvironmentsService({
    repos,
    secretBox,
    referenceChecks: [organizationSettings.environmentReferenceCheck, automationEnvironmentReferenceCheck(repos.automations)],
  });
  const credentials = createCredentialsService({ repos, secretBox });
  const modelCatalog = createModelCatalogService({
    repos,
    config,
    logger: logger.child({ component: 'model-catalog' }),
    organizationSecret: (organizationId, agent) => credentials.organizationSecret(organizationId, agent),
  });
  const analytics = createAnalyticsService({ repos });
  const plugins = pluginsFromConfig({ repos, secretBox, config, logger: logger.child({ component: 'plugins' }) });
  const threads = createThreadDispatcher({ repos, temporal });
  const automationInbox = createAutomationInbox({ repos, temporal, logger: logger.child({ component: 'automation-inbox' }) });
  const automationIntake = createAutomationIntake({
    automations: repos.automations,
    inbox: automationInbox,
    bus,
    github: config.github,
    gitlabSenders: createGitlabSenders({
      connections: repos.connections,
      identity: repos.identity,
      secretBox,
      lookupHashes,
      deploymentToken: config.gitlab.webhookToken,
      logger: logger.child({ component: 'gitlab-webhooks' }),
    }),
    botName: config.botName,
    logger: logger.child({ component: 'automation-webhooks' }),
    pullRequests: analytics,
    threads: createCodeHostingThreads({ repos, threads, botName: config.botName, logger: logger.child({ component: 'code-hosting-threads' }) }),
  });
  return {
    identity,
    plugins,
    repositories,
    environments,
    environmentResources: createEnvironmentResourcesService({ repos, secretBox, environments }),
    repoSkills: createRepoSkillsService({ repos, environments, github: githubContents }),
    hooks: createHooksService({ repos, environments, temporal, warmPoolSize: config.warmPoolSize }),
    credentials,
    organizationSettings,
    modelCatalog,
    events,
    replicas: createReplicasService({
      repos,
      secretBox,
      temporal,
      events,
      bus,
      timings: { idleMs: config.workspaceIdleMs, archiveAfterMs: config.workspaceArchiveAfterMs, historyLimit: config.workspaceHistoryLimit },
      blobs,
      outbound: createOutboundPolicy(config.outboundAllow),
      integrations: (row) => plugins.environmentIntegrations(row),
    }),
    terminals: createTerminalService({ client: deps.terminalClient, repos }),
    userAccount: createUserAccountService({ repos, identity }),
    automations: createAutomationsService({
      repos,
      secretBox,
      temporal,
      isModelAllowed: (organizationId, agent, model) => modelCatalog.isModelAllowed(organizationId, agent, model),
      pullRequests: createGithubPullRequestReader(config.github),
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
    sentryIntake: createSentryIntake({
      connections: repos.connections,
      automations: repos.automations,
      inbox: automationInbox,
      secretBox,
      logger: logger.child({ component: 'sentry-webhooks' }),
    }),
    media: createMediaService({ repos, blobs, temporal, links, limits: config.media, publicBaseUrl: config.publicBaseUrl }),
    aiGateway: createAiGateway({ repos, secretBox, credentials, models: modelCatalog, config, logger: logger.child({ component: 'ai-gateway' }) }),
    downloads: createDownloadsService({
      store: createReleaseStore(config.releasesDir, (reason) => logger.error('the releases manifest is invalid', { dir: config.releasesDir, reason })),
      links,
      logger: logger.child({ component: 'downloads' }),
    }),
    skillsRegistries: createSkillsRegistriesService({
      repos,
      environments,
      contents: githubContents,
      repositories: createGithubRepositoryReader({ apiUrl: config.github.apiUrl, token: config.github.token }),
      logger: logger.child({ component: 'skills-registries' }),
    }),
    warmPoolStream: createWarmPoolStreamService({ repos, environments }),
    analytics,
    previews: createPreviewsService({
      repos,
      events,
      temporal,
      links,
      authenticate: (authorization) => identity.authenticate(authorization),
      origins:
        config.previewUrls === 'path' && config.previewListener
          ? { form: 'path', listenerPort: config.previewListener.port, baseUrl: config.previewListener.url }
          : { form: 'host', domain: config.previewDomain },
      publicBaseUrl: config.publicBaseUrl,
      localBaseUrl: `http://localhost:${config.port}`,
      keepAwakeEveryMs: Math.max(1000, Math.min(60_000, Math.floor(config.workspaceIdleMs / 4))),
      relayGrants: createRelayGrants(config.encryptionKeys),
      dial: config.previewDial,
      logger: logger.child({ component: 'previews' }),
    }),
    connections: createConnectionsService({ repos, secretBox, lookupHashes, outbound }),
    // Short-lived presence in Redis (REDIS_URL) or this process; close() ends its connection.
    presence: createPresenceService({
      repos,
      store: openPresenceStore(config, logger),
      bus,
      ttlMs: config.presenceTtlMs,
      logger: logger.child({ component: 'presence' }),
    }),
    /** Receivers hand verified thread messages (Slack, Linear, GitHub/GitLab mentions) to this. */
    threads,
    linearWebhooks: createLinearReceiver({
      connections: repos.connections,
      threads: repos.integrationThreads,
      dispatcher: threads,
      secretBox,
      logger: logger.child({ component: 'linear-webhooks' }),
    }),
    ...createSlackServices({ repos, secretBox, threads, inbox: automationInbox, logger }),
  };
}

export type Services = ReturnType<typeof createServices>;
