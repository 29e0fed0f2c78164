/**
 * The real coding-agent CLIs in workspaces, through the public API: the shared harness's worker
 * is restarted without the test agent, and the local model server answers on the AI gateway's
 * upstream port, so every provider call goes CLI → gateway → model server.
 */
import type { Config } from '../../../src/config';
import { aiUpstream, harness } from '../../support/harness';
import { as, newOrg, request } from '../../support/http';
import { startModelServer, type ModelServer } from '../../support/modelServer';
import { execInContainer } from '../../support/containerExec';
import { until } from '../../support/wait';
import { workspaceName } from '../../../src/sandbox/workspace';
import { createBareRepo } from '../../support/gitRepo';

export const V = { 'X-Api-Version': '2026-05-17' };

export interface RealAgentsRig {
  /** The model server on the gateway's upstream port. */
  models: ModelServer;
  /** Closes the model server: the provider refuses connections until `startModels`. */
  stopModels(): Promise<void>;
  startModels(): Promise<void>;
  stop(): Promise<void>;
}

/** Starts the model server and the worker with the real CLIs (and `overrides`); `stop` undoes both. */
export async function useRealAgents(overrides: Partial<Config> = {}): Promise<RealAgentsRig> {
  let running = true;
  const rig: RealAgentsRig = {
    models: await startModelServer({ port: aiUpstream().port }),
    async stopModels() {
      running = false;
      await rig.models.close();
    },
    async startModels() {
      rig.models = await startModelServer({ port: aiUpstream().port });
      running = true;
    },
    async stop() {
      await harness().restartWorker();
      if (running) await rig.models.close();
    },
  };
  await harness().restartWorker({ agentExecutable: undefined, ...overrides });
  return rig;
}

/** An organization with a repository bound to an environment, and an org credential for `agent`. */
export async function agentOrg(agent: string, options: { systemPrompt?: string; credential?: boolean } = {}) {
  const org = await newOrg(agent);
  const api = as(org.org_api_key);
  const repo = await createBareRepo('app', { 'README.md': '# app\n' });
  const repository = await harness().admin.addRepository({ organizationId: org.organization_id, url: repo.url });
  const env = (await api.post('/v1/environments', { name: `${agent}-env`, repository_id: repository.id, ...(options.systemPrompt ? { system_prompt: options.systemPrompt } : {}) })).body.environment;
  const orgSecret = `org-${agent}-secret-${org.organization_id}`;
  if (options.credential !== false) await api.post(`/v1/organization/credentials/${agent}`, { kind: 'api_key', secret: orgSecret });
  return { org, api, env, orgSecret };
}

/** Creates a replica with a first message and waits for that turn to end; its status and the replica id. */
export async function firstTurn(key: string, body: Record<string, unknown>, timeoutMs = 180_000) {
  const created = await request('POST', '/v1/replica', { key, headers: V, body });
  if (created.status !== 201) throw new Error(`create failed: ${created.status} ${JSON.stringify(created.body)}`);
  const id = created.body.replica.id as string;
  const status = await turnEnded(id, 1, timeoutMs);
  return { id, status };
}

/** Waits until `count` messages of the replica have ended; the last one's status and error. */
export async function turnEnded(replicaId: string, count: number, timeoutMs = 180_000) {
  return until(`${count} turn(s) of ${replicaId} to end`, async () => {
    const ended = await harness().database.db('replica_messages').where({ replica_id: replicaId }).whereIn('status', ['completed', 'failed', 'interrupted']).orderBy('completed_at');
    return ended.length >= count && { status: ended[count - 1].status as string, error: ended[count - 1].error as string | null };
  }, timeoutMs);
}

export const inWorkspace = (replicaId: string, cmd: string) => execInContainer(workspaceName(replicaId), cmd);

/** The replica's agent history events (all chats), oldest first. */
export async function historyTypes(replicaId: string): Promise<string[]> {
  const rows = await harness().database.db('replica_agent_events').where({ replica_id: replicaId }).orderBy('id').select('type');
  return rows.map((r: { type: string }) => r.type);
}

/** The replica's `error` events (what the events stream carried), oldest first. */
export async function errorEvents(replicaId: string): Promise<Array<{ code: string; message: string; agent?: string }>> {
  const rows = await harness().database.db('replica_events').where({ replica_id: replicaId, type: 'error' }).orderBy('id');
  return rows.map((r: { payload: unknown }) => (typeof r.payload === 'string' ? JSON.parse(r.payload) : r.payload));
}
