/**
 * The two organizations of a fuzz run: the one whose key sends the requests, and another whose
 * records it must never reach. Each gets a few records of every cheap kind (environment and its
 * settings, an automation that only a webhook fires, API keys, and a workspace row with a chat
 * and a queued message, written without a container), so generated ids hit real rows.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { hashEngineSecret } from '../../src/domain/replicas';
import { harness } from '../support/harness';
import { newOrg, request } from '../support/http';
import type { IdPools } from './values';

export interface Organization {
  key: string;
  /** The admin's personal key. */
  personalKey: string;
  /** The workspace row's engine credentials (code inside a workspace calls with them). */
  engine: { workspaceId: string; secret: string };
  organizationId: string;
  /** Record ids by kind (`environment`, `chat`, `replica`…). */
  ids: Map<string, string[]>;
}

interface Step {
  kind: string;
  method: string;
  path: (ids: (kind: string) => string) => string;
  body: (ids: (kind: string) => string) => unknown;
  /** Bytes sent as they are instead of a JSON body. */
  raw?: { body: string; contentType: string };
  /** The new record's id in the answer. */
  id: (body: any) => unknown;
}

/** The id of the record an answer wraps (`{environment_variable: {id, …}}`) or is. */
function wrapped(body: any): unknown {
  if (typeof body?.id === 'string') return body.id;
  return Object.values<any>(body ?? {}).find((v) => typeof v?.id === 'string')?.id;
}

const STEPS: Step[] = [
  { kind: 'environment', method: 'POST', path: () => '/v1/environments', body: () => ({ name: 'fuzz-env' }), id: wrapped },
  {
    kind: 'variable',
    method: 'POST',
    path: (id) => `/v1/environments/${id('environment')}/variables`,
    body: () => ({ key: 'FUZZ_VALUE', value: 'one' }),
    id: wrapped,
  },
  {
    kind: 'file',
    method: 'POST',
    path: (id) => `/v1/environments/${id('environment')}/files`,
    body: () => ({ path: '~/fuzz/notes.txt', content: 'fuzz' }),
    id: wrapped,
  },
  {
    kind: 'skill',
    method: 'POST',
    path: (id) => `/v1/environments/${id('environment')}/skills`,
    body: () => ({ name: 'Fuzz', slug: 'fuzz', source: 'github:example/skills/fuzz' }),
    id: wrapped,
  },
  {
    kind: 'mcp',
    method: 'POST',
    path: (id) => `/v1/environments/${id('environment')}/mcps`,
    body: () => ({ name: 'fuzz-tools', transport: 'stdio', config: { command: 'true', args: [] } }),
    id: wrapped,
  },
  {
    kind: 'automation',
    method: 'POST',
    path: () => '/v1/automations',
    body: (id) => ({ name: 'Fuzz automation', prompt: 'Only a webhook fires me', environment_id: id('environment'), triggers: [{ type: 'custom' }], enabled: false }),
    id: wrapped,
  },
  { kind: 'apiKey', method: 'POST', path: () => '/v1/organization/api-keys', body: () => ({ name: 'fuzz spare' }), id: wrapped },
  { kind: 'chat', method: 'POST', path: (id) => `/v1/replica/${id('replica')}/chats`, body: () => ({ provider: 'agent_1', title: 'Fuzz chat' }), id: wrapped },
  {
    kind: 'media',
    method: 'POST',
    path: (id) => `/v1/replica/${id('replica')}/media?filename=fuzz.txt&kind=image`,
    body: () => undefined,
    raw: { body: 'not really an image', contentType: 'text/plain' },
    id: wrapped,
  },
  {
    kind: 'message',
    method: 'POST',
    path: (id) => `/v1/workspaces/${id('replica')}/chats/${id('chat')}/messages`,
    body: () => ({ message: 'queued while the workspace prepares' }),
    id: (b) => b?.messageId,
  },
];

async function organization(name: string, log: (line: string) => void): Promise<Organization> {
  const created = await newOrg(name);
  const ids = new Map<string, string[]>([
    ['environment', [created.global_environment_id]],
    ['user', [created.admin.user_id]],
    ['organization', [created.organization_id]],
  ]);
  // A workspace row without a container or workflow: messages wait in its queue, lifecycle
  // requests find no workflow to signal, so nothing starts.
  const replicaId = randomUUID();
  const engineSecret = randomBytes(32).toString('base64url');
  await harness().database.db('replicas').insert({
    id: replicaId,
    organization_id: created.organization_id,
    user_id: created.admin.user_id,
    name: `${name}-workspace`,
    status: 'preparing',
    coding_agent: 'agent_1',
    engine_secret_hash: hashEngineSecret(engineSecret),
  });
  ids.set('replica', [replicaId]);

  const first = (kind: string) => ids.get(kind)?.at(-1) ?? randomUUID();
  for (const step of STEPS) {
    const answer = step.raw
      ? await request(step.method, step.path(first), { key: created.org_api_key, rawBody: step.raw.body, headers: { 'content-type': step.raw.contentType } })
      : await request(step.method, step.path(first), { key: created.org_api_key, body: step.body(first) });
    const id = answer.status < 300 ? step.id(answer.body) : undefined;
    if (typeof id === 'string') ids.set(step.kind, [...(ids.get(step.kind) ?? []), id]);
    else log(`setup: ${step.method} ${step.path(first)} answered ${answer.status} (${JSON.stringify(answer.body).slice(0, 200)}); no ${step.kind} id`);
  }
  return {
    key: created.org_api_key,
    personalKey: created.admin.personal_api_key,
    engine: { workspaceId: replicaId, secret: engineSecret },
    organizationId: created.organization_id,
    ids,
  };
}

export async function setUpTenants(log: (line: string) => void): Promise<{ own: Organization; other: Organization; pools: IdPools }> {
  const own = await organization('fuzz-own', log);
  const other = await organization('fuzz-other', log);
  return { own, other, pools: { own: own.ids, other: other.ids } };
}
