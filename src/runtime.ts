/**
 * Assembly shared by the composition roots (api, worker, dev) and the integration tests:
 * each builds its dependencies once, then hands them to these functions.
 */
import { randomUUID } from 'node:crypto';
import type Koa from 'koa';
import { version } from '../package.json';
import type { Config } from './config';
import { createSecretBox } from './crypto/secretBox';
import { createApp } from './http/app';
import { allRoutes } from './http/routes';
import type { Logger } from './logger';
import { createDocker, createSandboxRuntime, type SandboxRuntime } from './sandbox';
import { createWorkspaceRuntime } from './sandbox/workspace';
import { createGithubChecksClient } from './integrations/github/checks';
import { createAutomationSweeper } from './temporal/inboxSweeper';
import { createAutomationInboxRepository } from './db/automationInboxRepository';
import { createReplicaEventEmitter } from './events/replicaEvents';
import { createCredentialsService } from './services/credentials';
import { createTerminalClient, createTerminalManager } from './terminals';
import { createServices, type Services } from './services';
import { createResolutionService } from './services/resolution';
import { connectTemporal, createTemporalGateway, type TemporalGateway } from './temporal/gateway';
import { connectWorker, createHangarWorker } from './temporal/worker';
import { pingDatabase } from './db/knex';
import type { Database } from './db/database';

export { migrate, openDatabase, type Database } from './db/database';

export interface ApiRuntime {
  app: Koa;
  services: Services;
  temporal: TemporalGateway;
  close(): Promise<void>;
}

export async function buildApi(options: { config: Config; logger: Logger; database: Database; temporalAddress: string }): Promise<ApiRuntime> {
  const { config, logger, database } = options;
  const connection = await connectTemporal(options.temporalAddress);
  const temporal = createTemporalGateway(connection, { namespace: config.temporalNamespace, taskQueue: config.taskQueue });
  const services = createServices({ db: database.db, bus: database.bus, secretBox: createSecretBox(config.encryptionKeys), temporal, config, logger });
  const terminalClient = createTerminalClient({ bus: database.bus, logger: logger.child({ component: 'terminals' }) });
  const routes = allRoutes({
    services,
    terminalClient,
    db: database.db,
    legacyCreateTimeoutMs: config.legacyCreateTimeoutMs,
    bus: database.bus,
    logger,
    version,
    probes: [
      { name: 'database', check: () => pingDatabase(database.db) },
      { name: 'temporal', check: () => temporal.ping() },
    ],
  });
  const app = createApp({
    logger,
    identity: services.identity,
    routes,
    bodyLimitBytes: config.bodyLimitBytes,
    authenticateEngine: (workspaceId, authorization) => services.replicas.authenticateEngine(workspaceId, authorization),
  });
  // Code-hosting delivery ids are remembered for a week (at least 72 h is required).
  const pruneDeliveries = () =>
    services.automationIntake.pruneDeliveries().catch((err) => logger.warn('pruning webhook delivery ids failed', { err }));
  const pruneTimer = setInterval(pruneDeliveries, 60 * 60 * 1000).unref();
  return {
    app,
    services,
    temporal,
    close: async () => {
      clearInterval(pruneTimer);
      await terminalClient.shutdown();
      await services.replicaActivity.close();
      await temporal.close();
    },
  };
}

export interface WorkerRuntime {
  sandbox: SandboxRuntime;
  /** Resolves when the worker has stopped. */
  running: Promise<void>;
  shutdown(): Promise<void>;
}

export async function startWorker(options: { config: Config; logger: Logger; database: Database; temporalAddress: string }): Promise<WorkerRuntime> {
  const { config, logger, database } = options;
  const docker = createDocker(process.env);
  const secretBox = createSecretBox(config.encryptionKeys);
  const resolution = createResolutionService({ db: database.db, secretBox });
  const workspaceRuntime = createWorkspaceRuntime(docker, {
    image: config.sandboxImage,
    logger: logger.child({ component: 'workspaces' }),
    networkMode: config.sandboxNetworkMode,
    memoryCapBytes: config.workspaceMemoryCapBytes,
  });
  const sandbox = createSandboxRuntime(docker, {
    image: config.sandboxImage,
    poolSize: config.sandboxPoolSize,
    memoryBytes: config.sandboxMemoryBytes,
    nanoCpus: config.sandboxNanoCpus,
    pidsLimit: config.sandboxPidsLimit,
    networkMode: config.sandboxNetworkMode,
    ownerId: config.sandboxOwner,
    logger: logger.child({ component: 'sandbox' }),
  });
  // One connection: the worker polls on it, and its gateway starts the workflows the inbox
  // sweeper finds unstarted and stops a deleted automation's workflows.
  const connection = await connectWorker(options.temporalAddress, logger);
  const temporal = createTemporalGateway(connection, { namespace: config.temporalNamespace, taskQueue: config.taskQueue });
  const events = createReplicaEventEmitter(database.db, database.bus);
  const worker = await createHangarWorker({
    logger,
    connection,
    namespace: config.temporalNamespace,
    taskQueue: config.taskQueue,
    shutdownGraceMs: config.workerShutdownGraceMs,
    activities: {
      resolution,
      sandbox,
      bus: database.bus,
      logger: logger.child({ component: 'activities' }),
      hookTimeoutMs: config.hookTimeoutMs,
    },
    workspace: {
      db: database.db,
      secretBox,
      resolution,
      runtime: workspaceRuntime,
      events,
      credentials: createCredentialsService({ db: database.db, secretBox }),
      logger: logger.child({ component: 'workspace-activities' }),
      agentExecutable: config.agentExecutable,
      hookTimeoutMs: config.hookTimeoutMs,
      publicBaseUrl: config.publicBaseUrl,
    },
    automationRuns: {
      db: database.db,
      secretBox,
      events,
      timings: { idleMs: config.workspaceIdleMs, archiveAfterMs: config.workspaceArchiveAfterMs, historyLimit: config.workspaceHistoryLimit },
      logger: logger.child({ component: 'automation-runs' }),
    },
    automationChecks: {
      db: database.db,
      github: createGithubChecksClient(config.github),
      publicBaseUrl: config.publicBaseUrl,
      logger: logger.child({ component: 'automation-checks' }),
    },
    automationCleanup: { db: database.db, temporal, logger: logger.child({ component: 'automation-cleanup' }) },
  });
  // Terminal sessions live in the worker that holds their TTY; the API reaches them over the bus.
  const terminals = createTerminalManager({
    bus: database.bus,
    db: database.db,
    owner: `${config.sandboxOwner}-${randomUUID().slice(0, 8)}`,
    // A replica that claimed a warm-pool workspace uses that entry's container.
    openTty: async (replicaId, opts) => {
      const row = await database.db('replicas').where({ id: replicaId }).first('workspace_key');
      return workspaceRuntime.openTty(row?.workspace_key ?? replicaId, opts);
    },
    logger: logger.child({ component: 'terminals' }),
  });
  await terminals.start();
  // Starts the workflows of inbox rows whose start was lost (see temporal/inboxSweeper.ts).
  const sweeper = createAutomationSweeper({
    inbox: createAutomationInboxRepository(database.db),
    temporal,
    logger: logger.child({ component: 'automation-sweeper' }),
    graceMs: config.automationSweepMs,
  });
  sweeper.start(config.automationSweepMs);
  const running = worker.run().finally(async () => {
    await sweeper.stop();
    await terminals.close();
    await sandbox.close();
    await connection.close();
  });
  return {
    sandbox,
    running,
    async shutdown() {
      if (worker.getState() === 'RUNNING') worker.shutdown();
      await running;
    },
  };
}
