/**
 * The I/O of a workspace's life: provision its container, run agent turns, stop, start,
 * remove, and keep the replica's record and events stream in step. Each is idempotent by
 * replica id (or by the message it claims), so a retried activity repeats no side effect.
 */
import { ApplicationFailure, Context } from '@temporalio/activity';
import type { Knex } from 'knex';
import type { AgentId } from '../src/agents/catalog';
import type { SecretBox } from '../src/crypto/secretBox';
import type { ReplicaEventEmitter } from '../src/events/replicaEvents';
import type { Logger } from '../src/logger';
import type { WorkspaceRuntime } from '../src/sandbox/workspace';
import type { ReplicaRow } from '../src/services/replicas/access';
import type { ResolutionService, ResolvedEnvironment } from '../src/services/resolution';
import { environmentSetup, LOGIN_ENV_FILE, loginEnvScript, type EnvironmentSetup, type WarmHookLog } from './workspaceSetup';
import { deliverWebhookOnce, WebhookDeliveryError, type WebhookEvent } from '../src/integrations/webhooks/deliver';
import { webhookRetryDelay } from '../src/integrations/webhooks/retry';
import type { WorkspaceStatus } from '../workflows/shared';

export interface CredentialResolver {
  resolveCredential(input: { organizationId: string; userId: string | null; agent: AgentId }): Promise<{ kind: 'api_key' | 'oauth_token'; secret: string } | null>;
}

export interface WorkspaceActivityDeps {
  db: Knex;
  secretBox: SecretBox;
  resolution: ResolutionService;
  runtime: WorkspaceRuntime;
  events: ReplicaEventEmitter;
  credentials: CredentialResolver;
  logger: Logger;
  agentExecutable?: string;
  hookTimeoutMs: number;
  publicBaseUrl?: string;
}

export const HOOK_LOG_PREVIEW = 100_000;
const HEARTBEAT_MS = 5000;

export function heartbeating<T>(fn: () => Promise<T>): Promise<T> {
  const ctx = Context.current();
  const timer = setInterval(() => ctx.heartbeat(), HEARTBEAT_MS);
  return fn().finally(() => clearInterval(timer));
}

/** The container a replica uses: a claimed warm-pool entry's, or its own. */
export const workspaceKey = (row: Pick<ReplicaRow, 'id' | 'workspace_key'>) => row.workspace_key ?? row.id;

/** The per-replica variables of its container (a warm-pool container gets them with each exec). */
export function replicaEnvironment(deps: Pick<WorkspaceActivityDeps, 'secretBox' | 'publicBaseUrl'>, row: ReplicaRow): Record<string, string> {
  return {
    HANGAR_WORKSPACE_ID: row.id,
    ...(row.engine_secret_sealed ? { HANGAR_ENGINE_SECRET: deps.secretBox.open(row.engine_secret_sealed) } : {}),
    ...(deps.publicBaseUrl ? { HANGAR_API_URL: deps.publicBaseUrl } : {}),
  };
}

export function createWorkspaceActivities(deps: WorkspaceActivityDeps) {
  const { db, runtime, events } = deps;

  const replica = async (replicaId: string): Promise<ReplicaRow | null> => (await db('replicas').where({ id: replicaId }).first()) ?? null;
  const keyOf = workspaceKey;
  const replicaEnv = (row: ReplicaRow) => replicaEnvironment(deps, row);

  async function provision(row: ReplicaRow): Promise<{ warmPoolEnvironmentId?: string }> {
    const environmentId = row.environment_id ?? (await db('environments').where({ organization_id: row.organization_id, is_global: true }).first())?.id;
    const setup = await environmentSetup(deps, row.organization_id, environmentId);
    const pool = await db('warm_pool_configs').where({ environment_id: setup.resolved.environment.id, enabled: true }).first();
    const claimed = pool ? await claimWarmWorkspace(row, setup) : null;
    if (claimed) {
      // A warm container: only the per-replica things are left, then the start hooks.
      const env = { ...setup.env, ...replicaEnv(row) };
      await runtime.ensure({ replicaId: claimed.id, size: row.size, env: setup.env });
      await runtime.writeFiles(claimed.id, [{ path: LOGIN_ENV_FILE, content: loginEnvScript(env) }]);
      await runStartHooks({ ...row, workspace_key: claimed.id }, setup.resolved, env);
      return { warmPoolEnvironmentId: setup.resolved.environment.id };
    }
    const key = keyOf(row);
    await runtime.ensure({ replicaId: key, size: row.size, env: { ...setup.env, ...replicaEnv(row) }, labels: { 'dev.hangar.organization': row.organization_id } });
    await runtime.writeFiles(key, setup.files);
    for (const repo of row.repositories) {
      await runtime.checkout(key, { name: repo.name, url: repo.url, branch: repo.default_branch });
    }
    await runStartHooks(row, setup.resolved);
    return pool ? { warmPoolEnvironmentId: setup.resolved.environment.id } : {};
  }

  /**
   * Takes a ready pool entry of the replica's environment built from the same environment
   * (variables, files) with the same repositories, preferring the current generation. A retried
   * provisioning finds the entry it already claimed.
   */
  async function claimWarmWorkspace(row: ReplicaRow, setup: EnvironmentSetup): Promise<{ id: string } | null> {
    if (row.workspace_key && row.workspace_key !== row.id) {
      const mine = await db('warm_pool_workspaces').where({ id: row.workspace_key, replica_id: row.id, status: 'assigned' }).first();
      if (mine && (await runtime.state(mine.id)) === 'running') return mine;
    }
    const claimed = await db.transaction(async (trx) => {
      const entry = await trx('warm_pool_workspaces as w')
        .join('warm_pool_configs as c', 'c.id', 'w.warm_pool_config_id')
        .where({ 'w.environment_id': setup.resolved.environment.id, 'w.status': 'ready', 'w.size': row.size, 'w.env_hash': setup.hash, 'c.enabled': true })
        .whereRaw('w.repositories = ?::jsonb', [JSON.stringify(row.repositories.map((r) => ({ id: r.id, name: r.name, url: r.url, default_branch: r.default_branch })))])
        .orderByRaw('(w.generation = c.generation) desc, w.created_at')
        .forUpdate('w')
        .skipLocked()
        .first('w.id', 'w.hook_logs');
      if (!entry) return null;
      await trx('warm_pool_workspaces').where({ id: entry.id }).update({ status: 'assigned', replica_id: row.id, updated_at: trx.fn.now() });
      await trx('replicas').where({ id: row.id }).update({ workspace_key: entry.id });
      const logs = (entry.hook_logs ?? []) as WarmHookLog[];
      if (logs.length) await trx('replica_hook_logs').insert(logs.map((l) => ({ ...l, id: crypto.randomUUID(), replica_id: row.id, kind: 'warm' })));
      return { id: entry.id as string };
    });
    if (claimed) deps.logger.info('warm workspace claimed', { replicaId: row.id, entryId: claimed.id });
    return claimed;
  }

  /**
   * Start hooks: the inherited ones, then the environment's own. A failing hook is logged and
   * reported but does not block the workspace (as the original service behaves).
   */
  async function runStartHooks(row: ReplicaRow, resolved: ResolvedEnvironment, env?: Record<string, string>): Promise<void> {
    const key = keyOf(row);
    const own = await db('environment_hooks').where({ environment_id: resolved.environment.id, kind: 'start', is_active: true }).first();
    const hooks = [
      ...(await deps.resolution.inheritedHooks(resolved, 'start')).map((h) => ({ name: h.layer, script: h.content })),
      ...(own ? [{ name: resolved.environment.is_global ? 'global' : 'environment', script: own.content as string }] : []),
    ];
    if (hooks.length === 0) return;
    await events.emit(row.id, 'hooks.started', { running: hooks.length, completed: 0 });
    let completed = 0;
    for (const hook of hooks) {
      const result = await runtime.runHook(key, { name: hook.name, script: hook.script, timeoutMs: deps.hookTimeoutMs, env });
      completed++;
      await db('replica_hook_logs').insert({
        id: crypto.randomUUID(),
        replica_id: row.id,
        kind: 'start',
        hook_type: 'environment',
        hook_name: hook.name,
        script: hook.script,
        output: result.output.slice(0, HOOK_LOG_PREVIEW),
        output_total_chars: result.outputTotalChars,
        exit_code: result.exitCode,
        timed_out: result.timedOut,
      });
      const failed = result.exitCode !== 0 || result.timedOut;
      await events.emit(row.id, failed ? 'hooks.failed' : 'hooks.progress', { running: hooks.length - completed, completed, hook: hook.name, exitCode: result.exitCode, timedOut: result.timedOut });
    }
    await events.emit(row.id, 'hooks.completed', { running: 0, completed });
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
      return outcome(() => provision(row));
    },

    async startWorkspace({ replicaId }: { replicaId: string }) {
      const row = await replica(replicaId);
      if (!row) return { ok: false, error: 'the replica no longer exists' };
      return outcome(async () => {
        if ((await runtime.state(keyOf(row))) === 'missing') await provision(row);
        else await runtime.start(keyOf(row));
      });
    },

    async stopWorkspace({ replicaId }: { replicaId: string }) {
      const row = await replica(replicaId);
      await runtime.stop(row ? keyOf(row) : replicaId);
    },

    async removeWorkspace({ replicaId }: { replicaId: string }) {
      const row = await replica(replicaId);
      await runtime.remove(row ? keyOf(row) : replicaId);
    },

    async setReplicaStatus({ replicaId, status, error }: { replicaId: string; status: WorkspaceStatus; error?: string }) {
      await db.transaction(async (trx) => {
        const row = await trx('replicas').where({ id: replicaId }).forUpdate().first();
        if (!row) return;
        const config = error ? { ...row.config, provisioning_error: { message: error } } : row.config;
        await trx('replicas')
          .where({ id: replicaId })
          .update({
            status,
            config: JSON.stringify(config),
            updated_at: trx.fn.now(),
            ...(status === 'archived' ? { archived_at: trx.fn.now() } : {}),
            ...(status === 'active' ? { last_activity_at: trx.fn.now() } : {}),
          });
      });
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
          secret: row.webhook_secret_sealed ? deps.secretBox.open(row.webhook_secret_sealed) : null,
          event: input.event,
          replicaId: input.replicaId,
          payload: input.payload,
          deliveryId: input.deliveryId,
          occurredAt: new Date(input.occurredAt),
        });
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
      await db('replicas').where({ id: replicaId }).delete();
    },
  };
}

export type WorkspaceActivities = ReturnType<typeof createWorkspaceActivities>;
