/**
 * What the fault cases send and what they count: an organization with a custom-webhook
 * automation, webhook deliveries that tell an answer from no answer, and the counts of
 * executions, workspaces and turns the database holds for that automation afterwards.
 */
import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { until } from '../../support/wait';
import { cluster } from './cluster';

export interface Answer {
  status: number;
  body: any;
}

export async function call(key: string, method: string, path: string, body?: unknown, timeoutMs = 30_000): Promise<Answer> {
  const res = await fetch(cluster().baseUrl + path, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(timeoutMs),
  });
  const text = await res.text();
  return { status: res.status, body: text && (res.headers.get('content-type') ?? '').includes('json') ? JSON.parse(text) : text };
}

/**
 * An organization with an agent_1 credential (the gateway swaps it in; the model server takes
 * any) and one custom-webhook automation whose runs give the agent `prompt`.
 */
export async function automationWith(prompt: string, name: string) {
  const org = await cluster().admin.createOrganization({ name: `faults-${name}`, adminEmail: `${name}-${randomBytes(3).toString('hex')}@example.com` });
  const key = org.org_api_key;
  const credential = await call(key, 'POST', '/v1/organization/credentials/agent_1', { kind: 'api_key', secret: `sk-faults-${randomBytes(8).toString('hex')}` });
  expect(credential.status, JSON.stringify(credential.body)).to.equal(200);
  const env = await call(key, 'POST', '/v1/environments', { name });
  expect(env.status, JSON.stringify(env.body)).to.equal(201);
  const created = await call(key, 'POST', '/v1/automations', { name, prompt, environment_id: env.body.environment.id, triggers: [{ type: 'custom', config: {} }] });
  expect(created.status, JSON.stringify(created.body)).to.equal(201);
  const automation = created.body.automation as { id: string; webhook_token: string };
  return { key, organizationId: org.organization_id, automation };
}

/** A delivery's outcome: its status, or `null` when no answer came (connection refused or cut, or too slow). */
export async function deliver(token: string, body: unknown, options: { idempotencyKey?: string; timeoutMs?: number } = {}): Promise<number | null> {
  try {
    const res = await fetch(`${cluster().baseUrl}/v1/automations/webhook/${token}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(options.idempotencyKey ? { 'idempotency-key': options.idempotencyKey } : {}) },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
    });
    await res.arrayBuffer();
    return res.status;
  } catch {
    return null;
  }
}

const UNFINISHED = ['pending', 'creating', 'running'];

export interface Counts {
  executions: number;
  unfinished: number;
  /** Executions by status. */
  byStatus: Record<string, number>;
  workspaces: number;
  /** Distinct workspaces the executions point at. */
  executionWorkspaces: number;
  /** Workspaces still `preparing`. */
  preparing: number;
  /** Turns (messages) by status, over the automation's workspaces. */
  turns: Record<string, number>;
  /** The most turns any one workspace has (1: no prompt ran twice). */
  maxTurnsPerWorkspace: number;
  replicaIds: string[];
}

export async function countsFor(automationId: string, organizationId: string): Promise<Counts> {
  const { db } = cluster().database;
  const executions = (await db('automation_executions').where({ automation_id: automationId }).select('status', 'workspace_id')) as { status: string; workspace_id: string | null }[];
  const replicas = (await db('replicas').where({ organization_id: organizationId }).select('id', 'status')) as { id: string; status: string }[];
  const replicaIds = replicas.map((r) => r.id);
  const messages = (await db('replica_messages').whereIn('replica_id', replicaIds).select('replica_id', 'status')) as { replica_id: string; status: string }[];
  const tally = (values: string[]) => values.reduce<Record<string, number>>((acc, v) => ({ ...acc, [v]: (acc[v] ?? 0) + 1 }), {});
  const perWorkspace = tally(messages.map((m) => m.replica_id));
  for (const id of replicaIds) cluster().replicaIds.add(id);
  return {
    executions: executions.length,
    unfinished: executions.filter((e) => UNFINISHED.includes(e.status)).length,
    byStatus: tally(executions.map((e) => e.status)),
    workspaces: replicas.length,
    executionWorkspaces: new Set(executions.map((e) => e.workspace_id).filter(Boolean)).size,
    preparing: replicas.filter((r) => r.status === 'preparing').length,
    turns: tally(messages.map((m) => m.status)),
    maxTurnsPerWorkspace: Math.max(0, ...Object.values(perWorkspace)),
    replicaIds,
  };
}

/** Sends `count` deliveries at once (payload `{n}` from `from`); their statuses. */
export function sendBatch(token: string, from: number, count: number, idempotent = false): Promise<(number | null)[]> {
  return Promise.all(Array.from({ length: count }, (_, i) => deliver(token, { n: from + i }, idempotent ? { idempotencyKey: `event-${from + i}` } : {})));
}

/**
 * Waits until at least `n` of the automation's agent turns run in their containers, each agent
 * having said something (its session is named, and recorded). With `inToolCall`, each agent has
 * also asked for its tool call (an `assistant` event with a `tool_use`): the CLI has written that
 * exchange to its session, so a turn cut from then on is cut mid-call, not before its first reply.
 */
export async function turnsRunning(automationId: string, organizationId: string, n: number, timeoutMs = 240_000, { inToolCall = false } = {}): Promise<number> {
  const { db } = cluster().database;
  return until(`${n} agent turns to run${inToolCall ? ' in a tool call' : ''}`, async () => {
    const { replicaIds } = await countsFor(automationId, organizationId);
    const said = db('replica_agent_events as e').whereRaw('e.replica_id = m.replica_id and e.message_id = m.id');
    if (inToolCall) said.whereLike('e.type', '%-assistant').whereRaw(`e.payload::text like '%"tool_use"%'`);
    const [row] = await db('replica_messages as m')
      .whereIn('m.replica_id', replicaIds)
      .where('m.status', 'running')
      .whereNotNull('m.agent_session')
      .whereExists(said)
      .count({ n: '*' });
    return Number(row!.n) >= n && Number(row!.n);
  }, timeoutMs, 500);
}

/** Where things stood at a fault: executions, workspaces and turns by status. */
export async function snapshot(automationId: string, organizationId: string) {
  const { db } = cluster().database;
  const counts = await countsFor(automationId, organizationId);
  const workspaces = (await db('replicas').where({ organization_id: organizationId }).select('status')) as { status: string }[];
  return { executions: counts.byStatus, workspaces: workspaces.reduce<Record<string, number>>((a, w) => ({ ...a, [w.status]: (a[w.status] ?? 0) + 1 }), {}), turns: counts.turns };
}

/** Waits until `expected` executions exist and none is pending, creating or running; returns the counts. */
export async function settled(automationId: string, organizationId: string, expected: number, timeoutMs: number): Promise<Counts> {
  let last: Counts | undefined;
  try {
    return await until(
      `${expected} executions to finish`,
      async () => {
        last = await countsFor(automationId, organizationId);
        const turnsOpen = (last.turns.running ?? 0) + (last.turns.queued ?? 0);
        return last.executions >= expected && last.unfinished === 0 && turnsOpen === 0 && last;
      },
      timeoutMs,
      1000,
    );
  } catch (err) {
    throw new Error(`${(err as Error).message}; last counts: ${JSON.stringify({ ...last, replicaIds: undefined })}`);
  }
}

/**
 * Each workspace takes one more message and runs it: no workflow was left wedged. Returns the
 * statuses the messages ended with.
 */
export async function nextMessagesRun(key: string, replicaIds: string[], timeoutMs: number): Promise<Record<string, number>> {
  const { db } = cluster().database;
  const sent: string[] = [];
  for (const id of replicaIds) {
    const answer = await call(key, 'POST', `/v1/replica/${id}/messages`, { message: 'after the fault' });
    expect(answer.status, JSON.stringify(answer.body)).to.be.oneOf([200, 201, 202]);
    sent.push(answer.body.message_id as string);
  }
  const rows = await until(
    'the next messages to end',
    async () => {
      const found = (await db('replica_messages').whereIn('id', sent).select('status', 'error')) as { status: string; error: string | null }[];
      return found.length === sent.length && found.every((r) => !['queued', 'running'].includes(r.status)) && found;
    },
    timeoutMs,
    1000,
  );
  // A turn that did not complete is counted with its error, so a failure says why.
  const label = (r: { status: string; error: string | null }) => (r.status === 'completed' ? r.status : `${r.status}: ${r.error}`);
  return rows.reduce<Record<string, number>>((acc, r) => ({ ...acc, [label(r)]: (acc[label(r)] ?? 0) + 1 }), {});
}

/** Deletes the workspaces through the API and waits until none of their containers is left. */
export async function deleteWorkspaces(key: string, replicaIds: string[], timeoutMs: number): Promise<void> {
  for (const id of replicaIds) {
    const answer = await call(key, 'DELETE', `/v1/replica/${id}`);
    expect(answer.status, JSON.stringify(answer.body)).to.equal(200);
  }
  let left: string[] = [];
  try {
    await until('the deleted workspaces\' containers to be removed', async () => (left = await cluster().containersOf(replicaIds)).length === 0, timeoutMs, 1000);
  } catch (err) {
    throw new Error(`${(err as Error).message}; ${left.length} left: ${left.join(', ')}`);
  }
}

/** A case's figures, printed so that a CI log shows what each case counted. */
export function report(name: string, figures: Record<string, unknown>): void {
  console.log(`      [faults] ${name}: ${JSON.stringify(figures)}`);
}
