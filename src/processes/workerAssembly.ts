/** The worker process's assembly: the Temporal worker, its activities and the sandboxes. */
import { createOutboundPolicy } from '../integrations/outbound/addressGuard';
import { randomUUID } from 'node:crypto';
import type { Config } from '../config';
import { createSecretBox } from '../crypto/secretBox';
import type { Logger } from '../logger';
import { createDocker, createSandboxRuntime, ownContainer, type SandboxRuntime } from '../sandbox';
import { createWorkspaceRuntime } from '../sandbox/workspace';
import { createCanvasReader } from '../sandbox/workspace/canvas';
import { isolateNetworks } from '../sandbox/network';
import { CANVAS_DIR } from '../domain/media';
import { createBlobStore } from '../storage';
import { createGithubChecksClient } from '../integrations/github/checks';
import { createGithubContentsClient } from '../integrations/github/contents';
import { createAutomationSweeper } from '../temporal/inboxSweeper';
import { createReplicaEventEmitter } from '../events/replicaEvents';
import { createCredentialResolver } from '../agents/credentials';
import { createTerminalManager } from '../terminals';
import { workspaceKey } from '../domain/replicas';
import { createWorkflowControl } from '../temporal/workflowControl';
import { verifySearchAttributes } from '../temporal/searchAttributes';
import { connectWorker, createHangarWorker } from '../temporal/taskQueueWorkers';
import { temporalConnectionOptions } from '../temporal/connectionOptions';
import type { Database } from '../db/database';
import type { Tracing } from '../tracing';
import { createSlackThreadAdapter } from '../integrations/slack/adapter';
import { createSlackWebApi } from '../integrations/slack/webApi';
import { createLinearThreadAdapter } from '../integrations/linear/adapter';
import { createCodeHostingThreadAdapters } from '../integrations/codeHosting/threadAdapters';
import { closingOnError, workflowControlOptions } from './shared';
import { hostTaskQueue } from '../../workflows/shared';
import { startHostHeartbeat } from '../temporal/hostHeartbeat';
import type { HealthCheck } from '../metrics/server';
import { sweepRetiredWarmContainers } from './warmPoolSweep';
import { sweepMovedWorkspaces } from '../sandbox/workspace/movedAway';
import { startPreviewRelay } from '../previews/relay';
import { createRelayGrants } from '../previews/relayGrants';
import { startWorkspaceReconciler } from '../sandbox/workspace/reconciler';
import { TURN_SUPERVISOR_PATH } from '../sandbox/workspace/turnSupervisor';

export interface WorkerProcess {
  sandbox: SandboxRuntime;
  /** Resolves when the worker has stopped. */
  running: Promise<void>;
  /** Healthy while it polls its task queues; not once it stops (a shutdown, or its Temporal worker failed). */
  health: HealthCheck;
  shutdown(): Promise<void>;
}

export async function startWorker(options: { config: Config; logger: Logger; database: Database; temporalAddress: string; tracing?: Tracing }): Promise<WorkerProcess> {
  const { config, logger, database, tracing } = options;
  const { repos } = database;
  const docker = createDocker(process.env);
  const secretBox = createSecretBox(config.encryptionKeys);
  // Where user-chosen URLs may go (replica webhooks, plugins, a GitLab connection's instance).
  const outbound = createOutboundPolicy(config.outboundAllow);
  const isolation = await isolateNetworks(config, docker, logger.child({ component: 'network' }));
  const workspaceRuntime = createWorkspaceRuntime(docker, {
    image: config.sandboxImage,
    logger: logger.child({ component: 'workspaces' }),
    networkMode: config.sandboxNetworkMode,
    networks: isolation?.networks,
    memoryCapBytes: config.workspaceMemoryCapBytes,
    volumes: config.workspaceVolumes,
  });
  const sandbox = createSandboxRuntime(docker, {
    // A worker in a container of this engine (compose, scaled or not) leaves a running sibling's sandboxes alone.
    container: await ownContainer(docker),
    image: config.sandboxImage,
    poolSize: config.sandboxPoolSize,
    memoryBytes: config.sandboxMemoryBytes,
    nanoCpus: config.sandboxNanoCpus,
    pidsLimit: config.sandboxPidsLimit,
    networkMode: isolation?.hooksNetwork ?? config.sandboxNetworkMode,
    ownerId: config.sandboxOwner,
    logger: logger.child({ component: 'sandbox' }),
  });
  // One connection: the worker polls on it, and its workflow control starts the workflows the inbox
  // sweeper finds unstarted and stops a deleted automation's workflows.
  const connection = await connectWorker(temporalConnectionOptions(config, options.temporalAddress), logger, config.metrics.temporalAddress);
  if (config.temporalSearchAttributes) await verifySearchAttributes(connection, config.temporalNamespace).catch(closingOnError(connection));
  const temporal = createWorkflowControl(connection, workflowControlOptions(config, tracing));
  const hostId = config.workerHostId;
  const hostQueue = hostTaskQueue(config.taskQueue, hostId);
  // Aborted once this worker stops polling: its agent turns hand over to the next worker of the
  // host instead of waiting out the grace period (activities/agentTurns/cli.ts).
  const draining = new AbortController();
  const worker = await createHangarWorker({
    logger,
    tracing,
    connection,
    namespace: config.temporalNamespace,
    taskQueue: config.taskQueue,
    hostTaskQueue: hostQueue,
    shutdownGraceMs: config.workerShutdownGraceMs,
    activities: {
      repos,
      secretBox,
      events: createReplicaEventEmitter(repos.replicaEvents, database.bus),
      bus: database.bus,
      sandbox,
      runtime: workspaceRuntime,
      credentials: createCredentialResolver({ repos, secretBox }),
      github: createGithubChecksClient(config.github),
      githubContents: createGithubContentsClient({ apiUrl: config.github.apiUrl, token: config.github.token }),
      workflows: temporal,
      logger,
      hookTimeoutMs: config.hookTimeoutMs,
      agentExecutable: config.agentExecutable,
      agentIdleTimeoutMs: config.agentIdleTimeoutMs,
      publicBaseUrl: config.publicBaseUrl,
      workspaceApiUrl: config.workspaceApiUrl,
      timings: { idleMs: config.workspaceIdleMs, archiveAfterMs: config.workspaceArchiveAfterMs, historyLimit: config.workspaceHistoryLimit },
      blobs: createBlobStore(config),
      canvas: createCanvasReader(docker, CANVAS_DIR),
      outbound,
      // Each provider's adapter is listed here as it is connected (Slack, Linear, GitHub, GitLab).
      hostId,
      hostTimeoutMs: config.hostTimeoutMs,
      workspaceVolumesShared: config.workspaceVolumes.shared,
      draining: draining.signal,
      threadAdapters: [
        createSlackThreadAdapter({
          repos,
          secretBox,
          slack: createSlackWebApi({ apiUrl: config.slack.apiUrl }),
          publicBaseUrl: config.publicBaseUrl,
          logger: logger.child({ component: 'slack' }),
        }),
        createLinearThreadAdapter({ connections: repos.connections, secretBox, apiUrl: config.linear.apiUrl, logger: logger.child({ component: 'linear' }) }),
        ...createCodeHostingThreadAdapters({ repos, secretBox, outbound, logger: logger.child({ component: 'code-hosting-threads' }), github: config.github, gitlab: config.gitlab }),
      ],
    },
  });
  // Terminal sessions live in the worker that holds their TTY; the API reaches them over the bus.
  const terminals = createTerminalManager({
    bus: database.bus,
    repository: repos.terminalSessions,
    owner: `${config.sandboxOwner}-${randomUUID().slice(0, 8)}`,
    hostId,
    // A replica that claimed a warm-pool workspace uses that entry's container.
    openTty: async (replicaId, opts) => {
      const row = await repos.replicas.find(replicaId);
      return workspaceRuntime.openTty(row ? workspaceKey(row) : replicaId, opts);
    },
    logger: logger.child({ component: 'terminals' }),
  });
  await terminals.start();
  // Not awaited: a slow engine listing must not hold the worker's start.
  void sweepRetiredWarmContainers({ docker, hostId, warmPools: repos.warmPools, remove: (id) => workspaceRuntime.remove(id), logger: logger.child({ component: 'warm-pools' }) }).catch((err) =>
    logger.warn('could not sweep the containers of retired warm-pool entries', { err }),
  );
  // Containers of workspaces that moved to another host while this one was lost never run again
  // beside them: awaited, so they are gone before this host takes any work.
  await sweepMovedWorkspaces({
    docker,
    hostId,
    movedAway: (id, keys) => repos.workerHosts.movedAway(id, keys),
    removeContainer: (key) => workspaceRuntime.removeContainer(key),
    logger: logger.child({ component: 'worker-host' }),
  }).catch((err) => logger.warn('could not sweep the containers of workspaces that moved away', { err }));
  // API processes reach this host's previews through its relay; it listens before the host
  // advertises it, and a port already taken stops the worker here.
  const relay = config.previewRelay
    ? await startPreviewRelay({
        ...config.previewRelay,
        hostId,
        grants: createRelayGrants(config.encryptionKeys),
        replicas: repos.replicas,
        docker,
        installHelper: (key) => workspaceRuntime.copyFromImage(key, TURN_SUPERVISOR_PATH),
        logger: logger.child({ component: 'preview-relay' }),
      }).catch(async (err: unknown) => {
        await terminals.close();
        await sandbox.close();
        await connection.close();
        throw err;
      })
    : null;
  // The host is offered new workspaces while this heartbeat keeps it fresh.
  const heartbeat = await startHostHeartbeat({
    hosts: repos.workerHosts,
    host: { id: hostId, taskQueue: hostQueue, capacity: config.hostMaxWorkspaces, relayUrl: config.previewRelay?.url ?? null },
    intervalMs: Math.min(10_000, Math.max(1000, Math.floor(config.hostTimeoutMs / 3))),
    logger: logger.child({ component: 'worker-host' }),
  });
  // Starts the workflows of inbox rows whose start was lost (see temporal/inboxSweeper.ts).
  const sweeper = createAutomationSweeper({
    inbox: repos.automationInbox,
    temporal,
    logger: logger.child({ component: 'automation-sweeper' }),
    graceMs: config.automationSweepMs,
  });
  sweeper.start(config.automationSweepMs);
  // Active workspaces whose container the engine stopped (an engine restart) are started again.
  const reconciler = startWorkspaceReconciler({
    docker,
    activeWorkspaces: async () => (await repos.replicas.activeOnHost(hostId)).map((r) => ({ replicaId: r.id, key: r.workspace_key ?? r.id })),
    requestRestart: (replicaId) => temporal.requestLifecycle(replicaId, 'restart'),
    beforeRestart: isolation?.recheck,
    intervalMs: config.workspaceReconcileMs,
    engineLostMs: config.engineLostMs,
    logger: logger.child({ component: 'workspace-reconciler' }),
  });
  const running = worker.run().finally(async () => {
    await reconciler.stop();
    await heartbeat.stop();
    await relay?.close();
    await sweeper.stop();
    await terminals.close();
    await sandbox.close();
    await connection.close();
  });
  return {
    sandbox,
    running,
    health: () => {
      if (draining.signal.aborted) return { ok: false, reason: 'stopping' };
      const state = worker.getState();
      return state === 'RUNNING' ? { ok: true } : { ok: false, reason: `the Temporal worker is ${state.toLowerCase()}` };
    },
    async shutdown() {
      await heartbeat.stop();
      if (worker.getState() === 'RUNNING') worker.shutdown();
      // After the polls stop, so that no turn handed over comes back to this worker.
      draining.abort();
      await running;
    },
  };
}

