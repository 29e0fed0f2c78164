/**
 * The I/O of a workspace's life: provision its container, run agent turns, stop, start,
 * remove, and keep the replica's record and events stream in step. Each is idempotent by
 * replica id (or by the message it claims), so a retried activity repeats no side effect.
 */
import type { OutboundPolicy } from '../src/integrations/outbound/addressGuard';
import { ApplicationFailure, Context } from '@temporalio/activity';
import type { CredentialResolver as AgentCredentials } from '../src/agents/credentials';
import { sealedField } from '../src/crypto/sealedFields';
import type { SecretBox } from '../src/crypto/secretBox';
import type { Repositories } from '../src/db';
import type { ReplicaRow } from '../src/db/replicasRepository';
import type { ReplicaEventEmitter } from '../src/events/replicaEvents';
import type { GithubContentsClient } from '../src/integrations/github/contents';
import type { Logger } from '../src/logger';
import type { WorkspaceRuntime } from '../src/sandbox/workspace';
import { snapshotRepositories, workspaceKey } from '../src/domain/replicas';
import { environmentSetup, hookChain, LOGIN_ENV_FILE, loginEnvScript, type EnvironmentSetup, type ResolvedWorkspaceEnvironment, type WarmHookLog } from '../src/worker/environmentSetup';
import { fetchSkills, withRegistrySkills } from '../src/worker/skills';
import type { EventBus } from '../src/events/bus';
import { announceWarmWorkspaceStatus } from '../src/events/warmPoolStream';
import { deliverWebhookOnce, WebhookDeliveryError, type WebhookEvent } from '../src/integrations/webhooks/deliver';
import { webhookRetryDelay } from '../src/integrations/webhooks/retry';
import type { BlobStore } from '../src/storage';
import { replicaBlobPrefix, type WorkspaceStatus } from '../workflows/shared';
import { HOST_LABEL } from './hosts';

/** How a turn gets its agent's credential. */
export type CredentialResolver = Pick<AgentCredentials, 'hasCredential'>;

export interface WorkspaceActivityDeps {
  repos: Repositories;
  secretBox: SecretBox;
  /** Where a replica's webhook_url may be delivered (the SSRF guard). */
  outbound: OutboundPolicy;
  runtime: WorkspaceRuntime;
  events: ReplicaEventEmitter;
  credentials: CredentialResolver;
  logger: Logger;
  agentExecutable?: string;
  /** A turn whose agent prints nothing this long is stopped as stalled. */
  agentIdleTimeoutMs: number;
  hookTimeoutMs: number;
  /** Hangar's API as the workspace reaches it (the AI gateway, `HANGAR_API_URL`). */
  workspaceApiUrl: string;
  /** Where the environments' skills are fetched from (GitHub's contents API). */
  githubContents: GithubContentsClient;
  /** Announces warm-pool entries claimed (their streams close); optional where nothing follows them. */
  bus?: EventBus;
  /** A deleted replica's media and canvas copies go with it. */
  blobs: Pick<BlobStore, 'deleteByPrefix'>;
  /** This worker's host: containers it makes carry it, and a claim takes only warm entries held here. */
  hostId?: string;
  /** Aborted when this worker begins to stop: its running turns hand over to the next worker. */
  draining?: AbortSignal;
}

export const HOOK_LOG_PREVIEW = 100_000;
const HEARTBEAT_MS = 5000;

export function heartbeating<T>(fn: () => Promise<T>): Promise<T> {
  const ctx = Context.current();
  const timer = setInterval(() => ctx.heartbeat(), HEARTBEAT_MS);
  return fn().finally(() => clearInterval(timer));
}

/** The per-replica variables of its container (a warm-pool container gets them with each exec). */
export function replicaEnvironment(deps: Pick<WorkspaceActivityDeps, 'secretBox' | 'workspaceApiUrl'>, row: ReplicaRow): Record<string, string> {
  return {
    HANGAR_WORKSPACE_ID: row.id,
    ...(row.engine_secret_sealed ? { HANGAR_ENGINE_SECRET: deps.secretBox.open(row.engine_secret_sealed, sealedField('replicas', 'engine_secret_sealed', row.id)) } : {}),
    HANGAR_API_URL: deps.workspaceApiUrl,
  };
}

export function createWorkspaceActivities(deps: WorkspaceActivityDeps) {
  const { repos, runtime, events } = deps;
  const { replicas, replicaLogs, warmPools } = repos;

  const replica = (replicaId: string): Promise<ReplicaRow | null> => replicas.find(replicaId);
  const replicaEnv = (row: ReplicaRow) => replicaEnvironment(deps, row);

  /** `again`: the workspace moves to this host over its shared volume, under the key it has (no warm entry is claimed). */
  async function provision(row: ReplicaRow, again = false): Promise<{ warmPoolEnvironmentId?: string }> {
    const environmentId = row.environment_id ?? (await repos.environments.findGlobal(row.organization_id))?.id;
    if (!environmentId) throw new Error('the organization has no Global environment');
    const setup = await environmentSetup(deps, row.organization_id, environmentId);
    const pool = again ? null : await warmPools.findForEnvironment(setup.resolved.environment.id, { enabledOnly: true });
    const claimed = pool ? await claimWarmWorkspace(row, setup) : null;
    if (claimed) {
      // A warm container: only the per-replica things are left, then the start hooks.
      const env = { ...setup.env, ...replicaEnv(row) };
      await runtime.ensure({ replicaId: claimed.id, size: row.size, env: setup.env, organizationId: row.organization_id });
      await runtime.writeFiles(claimed.id, [{ path: LOGIN_ENV_FILE, content: loginEnvScript(env) }]);
      await runStartHooks({ ...row, workspace_key: claimed.id }, setup.resolved, env);
      await replicas.setSkillsInstalled(row.id, claimed.skillsInstalled);
      return { warmPoolEnvironmentId: setup.resolved.environment.id };
    }
    const key = workspaceKey(row);
    // Skills come from GitHub while the container is being created.
    const [skills] = await Promise.all([
      withRegistrySkills(deps, setup.skills, setup.registries).then((skills) => fetchSkills(deps, skills)),
      runtime.ensure({
        replicaId: key,
        size: row.size,
        env: { ...setup.env, ...replicaEnv(row) },
        labels: { 'dev.hangar.organization': row.organization_id, ...(deps.hostId ? { [HOST_LABEL]: deps.hostId } : {}) },
        organizationId: row.organization_id,
      }),
    ]);
    // The environment's own files come last: one at a skill's path replaces the skill's.
    await runtime.writeFiles(key, [...skills.files, ...setup.files]);
    for (const repo of row.repositories) {
      await runtime.checkout(key, { name: repo.name, url: repo.url, branch: repo.default_branch });
    }
    await runStartHooks(row, setup.resolved);
    await replicas.setSkillsInstalled(row.id, skills.installed);
    return pool ? { warmPoolEnvironmentId: setup.resolved.environment.id } : {};
  }

  /**
   * Takes a ready pool entry of the replica's environment built from the same environment
   * (variables, files) with the same repositories, preferring the current generation. A retried
   * provisioning finds the entry it already claimed.
   */
  async function claimWarmWorkspace(row: ReplicaRow, setup: EnvironmentSetup): Promise<{ id: string; skillsInstalled: string[] } | null> {
    if (row.workspace_key && row.workspace_key !== row.id) {
      const mine = await warmPools.findEntry(row.workspace_key);
      if (mine && mine.replica_id === row.id && mine.status === 'assigned' && (await runtime.state(mine.id)) === 'running') {
        return { id: mine.id, skillsInstalled: mine.skills_installed ?? [] };
      }
    }
    const claimed = await repos.transact(async (trx) => {
      const entry = await warmPools.claimReady(
        { environmentId: setup.resolved.environment.id, size: row.size, envHash: setup.hash, repositories: snapshotRepositories(row.repositories), replicaId: row.id, hostId: deps.hostId },
        trx,
      );
      if (!entry) return null;
      await replicas.setWorkspaceKey(row.id, entry.id, trx);
      await replicaLogs.insertHookLogs(row.id, (entry.hookLogs as WarmHookLog[]).map((log) => ({ ...log, kind: 'warm' as const })), trx);
      return { id: entry.id, skillsInstalled: entry.skillsInstalled };
    });
    if (claimed) {
      deps.logger.info('warm workspace claimed', { replicaId: row.id, entryId: claimed.id });
      if (deps.bus) await announceWarmWorkspaceStatus(deps.bus, [claimed.id], 'assigned', (err) => deps.logger.warn('warm workspace stream publish failed', { err }));
    }
    return claimed;
  }

  /**
   * Start hooks: the inherited ones, then the environment's own. A failing hook is logged and
   * reported but does not block the workspace (as the original service behaves).
   */
  async function runStartHooks(row: ReplicaRow, resolved: ResolvedWorkspaceEnvironment, env?: Record<string, string>): Promise<void> {
    const key = workspaceKey(row);
    const hooks = (await hookChain(repos, resolved, 'start')).map((h) => ({ name: h.layer, script: h.script }));
    if (hooks.length === 0) return;
    // `running` and `completed` are the original's booleans; `total` and `done` count the hooks.
    const total = hooks.length;
    await events.emit(row.id, 'hooks.started', { running: true, completed: false, total, done: 0 });
    let completed = 0;
    for (const hook of hooks) {
      const result = await runtime.runHook(key, { name: hook.name, script: hook.script, timeoutMs: deps.hookTimeoutMs, env });
      completed++;
      await replicaLogs.insertHookLogs(row.id, [
        {
          kind: 'start',
          hook_type: 'environment',
          hook_name: hook.name,
          script: hook.script,
          output: result.output.slice(0, HOOK_LOG_PREVIEW),
          output_total_chars: result.outputTotalChars,
          exit_code: result.exitCode,
          timed_out: result.timedOut,
        },
      ]);
      const failed = result.exitCode !== 0 || result.timedOut;
      const progress = { running: completed < total, completed: completed === total, total, done: completed };
      await events.emit(row.id, failed ? 'hooks.failed' : 'hooks.progress', { ...progress, hook: hook.name, exitCode: result.exitCode, timedOut: result.timedOut });
    }
    await events.emit(row.id, 'hooks.completed', { running: false, completed: true, total, done: completed });
  }

  /** Where previews reach the running container; a restarted container may have a new address. */
  async function recordAddress(replicaId: string): Promise<void> {
    const row = await replica(replicaId);
    if (row) await replicas.setContainerAddress(row.id, await runtime.address(workspaceKey(row)));
  }

  /** Provisioning errors are final on the last attempt; earlier attempts retry. */
  async function outcome(work: () => Promise<unknown>): Promise<{ ok: boolean; error?: string; warmPoolEnvironmentId?: string }> {
    try {
      const result = await heartbeating(work);
      return { ok: true, ...(result && typeof result === 'object' ? result : {}) };
    } catch (err) {
      const { attempt } = Context.current().info;
      deps.logger.warn('workspace provisioning failed', { attempt, err: err as Error });
      if (attempt < 3) throw err;
      return { ok: false, error: (err as Error).message.slice(0, 2000) };
    }
  }

  return {
    async provisionWorkspace({ replicaId }: { replicaId: string }) {
      const row = await replica(replicaId);
      if (!row) return { ok: false, error: 'the replica no longer exists' };
      return outcome(async () => {
        const result = await provision(row);
        await recordAddress(row.id);
        return result;
      });
    },

    /**
     * The workspace comes to this host from a lost one: its home is on shared storage, so a
     * container made here over the same volume finds its files; a checked-out repository is
     * kept, the environment's files are written again and the start hooks run again.
     */
    async reprovisionWorkspace({ replicaId }: { replicaId: string }) {
      const row = await replica(replicaId);
      if (!row) return { ok: false, error: 'the replica no longer exists' };
      return outcome(async () => {
        if ((await runtime.state(workspaceKey(row))) === 'missing') await provision(row, true);
        else await runtime.start(workspaceKey(row), row.organization_id);
        await recordAddress(row.id);
      });
    },

    async startWorkspace({ replicaId }: { replicaId: string }) {
      const row = await replica(replicaId);
      if (!row) return { ok: false, error: 'the replica no longer exists' };
      return outcome(async () => {
        if ((await runtime.state(workspaceKey(row))) === 'missing') await provision(row);
        else await runtime.start(workspaceKey(row), row.organization_id);
        await recordAddress(row.id);
      });
    },

    async stopWorkspace({ replicaId }: { replicaId: string }) {
      // Heartbeating like the others: the container activities' heartbeat timeout is what finds a lost worker.
      await heartbeating(async () => {
        const row = await replica(replicaId);
        await runtime.stop(row ? workspaceKey(row) : replicaId);
        if (row) await replicas.setContainerAddress(row.id, null);
      });
    },

    async removeWorkspace({ replicaId }: { replicaId: string }) {
      await heartbeating(async () => {
        const row = await replica(replicaId);
        await runtime.remove(row ? workspaceKey(row) : replicaId);
      });
    },

    async setReplicaStatus({ replicaId, status, error }: { replicaId: string; status: WorkspaceStatus; error?: string }) {
      // A replica deleted meanwhile has nothing left to tell.
      if (!(await replicas.setStatus(replicaId, status, error))) return;
      await events.emit(replicaId, 'replica.status.changed', { status, waking: false, ...(error ? { error } : {}) });
      if (status === 'error') await events.emit(replicaId, 'error', { code: 'provisioning_failed', message: error ?? 'provisioning failed' });
    },

    /**
     * One attempt at a replica's outbound webhook. Temporal retries it on the webhook
     * schedule; the delivery id and time come from the workflow so every retry sends the
     * same signed body.
     */
    async deliverReplicaWebhook(input: { replicaId: string; event: WebhookEvent; deliveryId: string; occurredAt: string; payload: unknown }) {
      const row = await replica(input.replicaId);
      if (!row?.webhook_url) return;
      try {
        await deliverWebhookOnce({
          url: row.webhook_url,
          secret: row.webhook_secret_sealed ? deps.secretBox.open(row.webhook_secret_sealed, sealedField('replicas', 'webhook_secret_sealed', row.id)) : null,
          event: input.event,
          replicaId: input.replicaId,
          payload: input.payload,
          deliveryId: input.deliveryId,
          occurredAt: new Date(input.occurredAt),
        }, { policy: deps.outbound });
      } catch (err) {
        if (!(err instanceof WebhookDeliveryError)) throw err;
        throw ApplicationFailure.create({
          type: err.type,
          message: err.message,
          nonRetryable: !err.retryable,
          nextRetryDelay: webhookRetryDelay(Context.current().info.attempt, err.retryAfterMs) ?? undefined,
        });
      }
    },

    async deleteReplica({ replicaId }: { replicaId: string }) {
      // Blobs first: a retry after a failed row delete finds the row and deletes again.
      await deps.blobs.deleteByPrefix(replicaBlobPrefix(replicaId));
      await replicas.delete(replicaId);
    },
  };
}

export type WorkspaceActivities = ReturnType<typeof createWorkspaceActivities>;
