/**
 * The AI gateway through the public HTTP API: a workspace's placeholder key in, the resolved
 * credential out to a stand-in provider (./upstream.ts) on the port the shared harness points
 * HANGAR_AGENT_N_BASE_URL at, answers streamed back, and one usage row per forwarded request.
 */
import { createHash, randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { expect } from 'chai';
import type { AiGatewayUsageRow } from '../../../src/db/aiGatewayUsageRepository';
import { gatewayKey } from '../../../src/gateway';
import { aiUpstream, harness } from '../../support/harness';
import { as, newOrg, request } from '../../support/http';
import { until } from '../../support/wait';
import { insertChatRow, insertWorkspaceRow } from '../../support/workspaceRow';
import { startUpstream, TOKENS, type Upstream } from './upstream';

const ORG_SECRET = 'sk-ant-org-0123456789abcdefORG1';
const PERSONAL_SECRET = 'sk-ant-personal-0123456789abcdME1';
const OAUTH_TOKEN = 'sk-ant-oat-0123456789abcdefOAUTH';

type Org = Awaited<ReturnType<typeof newOrg>>;

interface Workspace {
  id: string;
  key: string;
  org: Org;
}

/** A workspace of `org` (see insertWorkspaceRow). */
async function workspace(org: Org, options: { personal?: boolean; agent?: string; chats?: string[] } = {}): Promise<Workspace> {
  const row = await insertWorkspaceRow(org.organization_id, { userId: options.personal ? org.admin.user_id : null, agent: options.agent, chats: options.chats });
  return { id: row.id, key: row.key, org };
}

const ALL_AGENTS = ['agent_1', 'agent_2', 'agent_3', 'agent_4', 'agent_5'];
const addChat = insertChatRow;

async function setCredential(key: string, scope: 'organization' | 'user', agent: string, body: { kind: 'api_key' | 'oauth_token'; secret: string }) {
  const res = await as(key).post(`/v1/${scope}/credentials/${agent}`, body);
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
}

interface CallOptions {
  method?: string;
  /** Where the placeholder goes: `x-api-key` (Anthropic clients) or `bearer`. */
  keyIn?: 'x-api-key' | 'bearer';
  key?: string;
  body?: unknown;
  rawBody?: Buffer | string;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

/** A call through the gateway, tagged with `x-test-id` so the stand-in's record of it can be found. */
async function gateway(path: string, options: CallOptions = {}) {
  const testId = randomUUID();
  const headers: Record<string, string> = { 'x-test-id': testId, ...options.headers };
  if (options.key) {
    if ((options.keyIn ?? 'x-api-key') === 'x-api-key') headers['x-api-key'] = options.key;
    else headers.authorization = `Bearer ${options.key}`;
  }
  let body: string | Buffer | undefined = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const res = await fetch(harness().baseUrl + path, { method: options.method ?? (body === undefined ? 'GET' : 'POST'), headers, body, signal: options.signal });
  return { res, testId };
}

async function gatewayJson(path: string, options: CallOptions = {}) {
  const { res, testId } = await gateway(path, options);
  const text = await res.text();
  const isJson = (res.headers.get('content-type') ?? '').includes('json');
  return { status: res.status, headers: res.headers, body: (isJson && text ? JSON.parse(text) : text) as any, testId };
}

/**
 * Reads a streamed body until `done(text so far)` holds or the body ends; fails after
 * `timeoutMs` without it (a gateway that buffers would otherwise hang the test).
 */
async function readUntil(reader: ReadableStreamDefaultReader<Uint8Array>, state: { text: string }, done: (text: string) => boolean, timeoutMs = 10_000): Promise<string> {
  const decoder = new TextDecoder();
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the stream did not deliver in time; got: ${state.text.slice(0, 200)}`)), timeoutMs);
  });
  try {
    while (!done(state.text)) {
      const { value, done: ended } = await Promise.race([reader.read(), deadline]);
      if (ended) break;
      state.text += decoder.decode(value, { stream: true });
    }
  } finally {
    clearTimeout(timer);
  }
  return state.text;
}

/**
 * A request with its path sent byte for byte (fetch would normalise `\\` and dot segments
 * before sending, which is exactly what must reach the server untouched here).
 */
function rawCall(path: string, headers: Record<string, string>): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${harness().baseUrl}/`, { method: 'GET', path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: unknown = text;
        try {
          body = JSON.parse(text);
        } catch {
          // not JSON: kept as text for the assertion message
        }
        resolve({ status: res.statusCode!, body });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

const usageRows = (replicaId: string) => harness().database.repos.aiGatewayUsage.listForReplica(replicaId);

async function usageRow(replicaId: string, count = 1): Promise<AiGatewayUsageRow> {
  const rows = await until(`${count} usage row(s) of ${replicaId}`, async () => {
    const found = await usageRows(replicaId);
    return found.length >= count && found;
  }, 10_000, 20);
  return rows[count - 1]!;
}

const anthropicAuthError = (body: any) => {
  expect(body.type).to.equal('error');
  expect(body.error.type).to.equal('authentication_error');
  expect(body.error.message).to.be.a('string');
  return body.error.message as string;
};

const openaiAuthError = (body: any) => {
  expect(body.error).to.include({ type: 'invalid_request_error', code: 'invalid_api_key' });
  expect(body.error.message).to.be.a('string');
  return body.error.message as string;
};

describe('AI gateway', () => {
  let upstream: Upstream & { close(): Promise<void> };

  before(async () => {
    upstream = await startUpstream(aiUpstream().port);
  });

  after(async () => {
    await upstream?.close();
  });

  describe('credentials', () => {
    it("swaps the organization's credential in for an org-key workspace; the placeholder never reaches the provider", async () => {
      const org = await newOrg('gateway');
      await setCredential(org.org_api_key, 'organization', 'agent_1', { kind: 'api_key', secret: ORG_SECRET });
      const ws = await workspace(org);
      const body = { model: 'claude-test-1', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] };
      const answer = await gatewayJson('/v1/ai-gateway/agent_1/v1/messages?beta=true', {
        key: ws.key,
        body,
        headers: { 'anthropic-version': '2023-06-01', 'anthropic-beta': 'test-beta' },
      });

      expect(answer.status).to.equal(200);
      expect(answer.body).to.include({ type: 'message', model: 'claude-test-1' });
      expect(answer.headers.get('x-upstream')).to.equal('stand-in');
      const seen = await upstream.call(answer.testId);
      expect(seen.method).to.equal('POST');
      expect(seen.url).to.equal('/agent_1/v1/messages?beta=true');
      expect(seen.headers['x-api-key']).to.equal(ORG_SECRET);
      expect(seen.headers.authorization).to.equal(undefined);
      expect(seen.headers).to.include({ 'anthropic-version': '2023-06-01', 'anthropic-beta': 'test-beta', 'accept-encoding': 'identity' });
      expect(seen.headers.host).to.equal(`127.0.0.1:${aiUpstream().port}`);
      expect(seen.body.toString('utf8')).to.equal(JSON.stringify(body));
      expect(seen.rawHeaders.join('\n')).not.to.contain('hgw_');
      expect(seen.url).not.to.contain('hgw_');

      const row = await usageRow(ws.id);
      expect(row).to.include({
        organization_id: org.organization_id,
        replica_id: ws.id,
        user_id: null,
        agent: 'agent_1',
        model: 'claude-test-1',
        status: 200,
        input_tokens: TOKENS.anthropicJson.input,
        output_tokens: TOKENS.anthropicJson.output,
      });
      expect(row.duration_ms).to.be.a('number').and.at.least(0);
    });

    it("prefers the owner's personal credential; a workspace created with the org key gets the organization's", async () => {
      const org = await newOrg('gateway');
      await setCredential(org.org_api_key, 'organization', 'agent_1', { kind: 'api_key', secret: ORG_SECRET });
      await setCredential(org.admin.personal_api_key, 'user', 'agent_1', { kind: 'api_key', secret: PERSONAL_SECRET });
      const mine = await workspace(org, { personal: true });
      const team = await workspace(org);
      const body = { model: 'claude-test-1', messages: [] };

      const personal = await gatewayJson('/v1/ai-gateway/agent_1/v1/messages', { key: mine.key, body });
      expect(personal.status).to.equal(200);
      expect((await upstream.call(personal.testId)).headers['x-api-key']).to.equal(PERSONAL_SECRET);
      expect((await usageRow(mine.id)).user_id).to.equal(org.admin.user_id);

      const shared = await gatewayJson('/v1/ai-gateway/agent_1/v1/messages', { key: team.key, body });
      expect(shared.status).to.equal(200);
      expect((await upstream.call(shared.testId)).headers['x-api-key']).to.equal(ORG_SECRET);
    });

    it('sends an agent_1 OAuth token as Authorization: Bearer, with the placeholder taken from either header', async () => {
      const org = await newOrg('gateway');
      await setCredential(org.admin.personal_api_key, 'user', 'agent_1', { kind: 'oauth_token', secret: OAUTH_TOKEN });
      const ws = await workspace(org, { personal: true });
      for (const keyIn of ['bearer', 'x-api-key'] as const) {
        const answer = await gatewayJson('/v1/ai-gateway/agent_1/v1/messages', { key: ws.key, keyIn, body: { model: 'claude-test-1', messages: [] } });
        expect(answer.status, keyIn).to.equal(200);
        const seen = await upstream.call(answer.testId);
        expect(seen.headers.authorization, keyIn).to.equal(`Bearer ${OAUTH_TOKEN}`);
        expect(seen.headers['x-api-key'], keyIn).to.equal(undefined);
      }
    });

    it('answers 401 in the provider shape, naming the fix, when no credential is configured', async () => {
      const org = await newOrg('gateway');
      const ws = await workspace(org, { chats: ['agent_2'] });
      const openai = await gatewayJson('/v1/ai-gateway/agent_2/v1/responses', { key: ws.key, keyIn: 'bearer', body: { model: 'gpt-test', input: 'hi' } });
      expect(openai.status).to.equal(401);
      const message = openaiAuthError(openai.body);
      expect(message).to.contain('agent_2').and.contain('POST /v1/organization/credentials/agent_2').and.contain('POST /v1/user/credentials/agent_2');

      const anthropic = await gatewayJson('/v1/ai-gateway/agent_1/v1/messages', { key: ws.key, body: { model: 'claude-test-1', messages: [] } });
      expect(anthropic.status).to.equal(401);
      expect(anthropicAuthError(anthropic.body)).to.contain('POST /v1/organization/credentials/agent_1');
      expect(upstream.calls.filter((c) => c.headers['x-test-id'] === openai.testId || c.headers['x-test-id'] === anthropic.testId)).to.have.length(0);
    });
  });

  describe('placeholder keys', () => {
    it('rejects a wrong, unknown, missing or deleted-replica placeholder with 401 in the provider shape', async () => {
      const org = await newOrg('gateway');
      await setCredential(org.org_api_key, 'organization', 'agent_1', { kind: 'api_key', secret: ORG_SECRET });
      await setCredential(org.org_api_key, 'organization', 'agent_2', { kind: 'api_key', secret: ORG_SECRET });
      const ws = await workspace(org);
      const other = randomUUID();
      const wrong = [
        `${ws.key.slice(0, -4)}AAAA`,
        gatewayKey(other, 'some-engine-secret'),
        gatewayKey(ws.id, 'not-the-engine-secret'),
        'sk-ant-a-real-looking-provider-key',
        org.org_api_key,
      ];
      const testIds: string[] = [];
      for (const key of wrong) {
        const a = await gatewayJson('/v1/ai-gateway/agent_1/v1/messages', { key, body: { model: 'm', messages: [] } });
        expect(a.status, key).to.equal(401);
        anthropicAuthError(a.body);
        const o = await gatewayJson('/v1/ai-gateway/agent_2/v1/responses', { key, keyIn: 'bearer', body: { model: 'm', input: 'hi' } });
        expect(o.status, key).to.equal(401);
        openaiAuthError(o.body);
        testIds.push(a.testId, o.testId);
      }
      const none = await gatewayJson('/v1/ai-gateway/agent_2/v1/responses', { body: { model: 'm', input: 'hi' } });
      expect(none.status).to.equal(401);
      openaiAuthError(none.body);

      expect((await gatewayJson('/v1/ai-gateway/agent_1/v1/messages', { key: ws.key, body: { model: 'm', messages: [] } })).status).to.equal(200);
      await harness().database.db('replicas').where({ id: ws.id }).update({ deleted_at: new Date() });
      const deleted = await gatewayJson('/v1/ai-gateway/agent_1/v1/messages', { key: ws.key, body: { model: 'm', messages: [] } });
      expect(deleted.status).to.equal(401);
      anthropicAuthError(deleted.body);
      testIds.push(none.testId, deleted.testId);
      expect(upstream.calls.filter((c) => testIds.includes(c.headers['x-test-id'] as string))).to.have.length(0);
    });

    it("binds a placeholder to its own replica: replica A's key never acts for replica B, in this organization or another", async () => {
      const orgA = await newOrg('gateway-a');
      const orgB = await newOrg('gateway-b');
      await setCredential(orgA.org_api_key, 'organization', 'agent_4', { kind: 'api_key', secret: ORG_SECRET });
      const a = await workspace(orgA, { agent: 'agent_4' });
      const sameOrg = await workspace(orgA, { agent: 'agent_4' });
      const foreign = await workspace(orgB, { agent: 'agent_4' });
      const mac = (key: string) => key.split('_')[2]!;
      const compact = (id: string) => id.replace(/-/g, '');
      const body = { model: 'router/model', messages: [] };

      for (const target of [sameOrg, foreign]) {
        // A's proof under B's id, and B's proof under A's id.
        for (const key of [`hgw_${compact(target.id)}_${mac(a.key)}`, `hgw_${compact(a.id)}_${mac(target.key)}`]) {
          const answer = await gatewayJson('/v1/ai-gateway/agent_4/v1/chat/completions', { key, keyIn: 'bearer', body });
          expect(answer.status).to.equal(401);
          expect(openaiAuthError(answer.body)).to.contain('Invalid AI gateway key');
        }
      }
      // B's own key acts for B only: its organization has no credential, so it gets none of A's.
      const own = await gatewayJson('/v1/ai-gateway/agent_4/v1/chat/completions', { key: foreign.key, keyIn: 'bearer', body });
      expect(own.status).to.equal(401);
      expect(openaiAuthError(own.body)).to.contain('No agent_4 credential');

      const ok = await gatewayJson('/v1/ai-gateway/agent_4/v1/chat/completions', { key: a.key, keyIn: 'bearer', body });
      expect(ok.status).to.equal(200);
      expect((await upstream.call(ok.testId)).headers.authorization).to.equal(`Bearer ${ORG_SECRET}`);
      expect((await usageRow(a.id)).organization_id).to.equal(orgA.organization_id);
      expect(await usageRows(sameOrg.id)).to.have.length(0);
      expect(await usageRows(foreign.id)).to.have.length(0);
    });
  });

  describe("the workspace's agents and the organization's models", () => {
    const forbidden = (body: any, wire: 'anthropic' | 'openai') => {
      if (wire === 'anthropic') {
        expect(body.type).to.equal('error');
        expect(body.error.type).to.equal('permission_error');
        return body.error.message as string;
      }
      expect(body.error.type).to.equal('invalid_request_error');
      return body.error.message as string;
    };
    const sawNothing = (testIds: string[]) => expect(upstream.calls.filter((c) => testIds.includes(c.headers['x-test-id'] as string))).to.deep.equal([]);

    it("opens only the agents the workspace's record puts to work: a workspace of agent_2 cannot spend the agent_1 credential", async () => {
      const org = await newOrg('gateway');
      for (const agent of ['agent_1', 'agent_2', 'agent_3']) await setCredential(org.org_api_key, 'organization', agent, { kind: 'api_key', secret: `${ORG_SECRET}-${agent}` });
      const ws = await workspace(org, { agent: 'agent_2' });
      const prompt = { model: 'claude-test-1', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] };

      const own = await gatewayJson('/v1/ai-gateway/agent_2/v1/responses', { key: ws.key, keyIn: 'bearer', body: { model: 'gpt-test', input: 'hi' } });
      expect(own.status).to.equal(200);
      const other = await gatewayJson('/v1/ai-gateway/agent_1/v1/messages', { key: ws.key, body: prompt });
      expect(other.status).to.equal(403);
      expect(forbidden(other.body, 'anthropic')).to.contain('agent_1').and.contain('agent_2');
      const viaBearer = await gatewayJson('/v1/ai-gateway/agent_1/v1/models', { key: ws.key, keyIn: 'bearer' });
      expect(viaBearer.status).to.equal(403);
      const third = await gatewayJson('/v1/ai-gateway/agent_3/v1/chat/completions', { key: ws.key, keyIn: 'bearer', body: { model: 'a1-large', messages: [] } });
      expect(third.status).to.equal(403);
      expect(third.body.error.code).to.equal('agent_not_in_workspace');
      sawNothing([other.testId, viaBearer.testId, third.testId]);
      // The usage row is written after the answer ends: wait for the one request that went through, then count.
      await usageRow(ws.id);
      expect(await usageRows(ws.id)).to.have.length(1);

      // A chat of agent_1 in the workspace (a member chose it) opens agent_1; deleting it closes it again.
      const chatId = await addChat(ws.id, 'agent_1');
      const chat = await gatewayJson('/v1/ai-gateway/agent_1/v1/messages', { key: ws.key, body: prompt });
      expect(chat.status).to.equal(200);
      expect((await upstream.call(chat.testId)).headers['x-api-key']).to.equal(`${ORG_SECRET}-agent_1`);
      await harness().database.db('replica_chats').where({ replica_id: ws.id, id: chatId }).update({ deleted_at: new Date() });
      expect((await gatewayJson('/v1/ai-gateway/agent_1/v1/messages', { key: ws.key, body: prompt })).status).to.equal(403);

      // A message for agent_3 in an agent_2 chat opens agent_3 while it is queued or running, not after.
      const agent2Chat = await addChat(ws.id, 'agent_2');
      const messageId = randomUUID();
      await harness().database.db('replica_messages').insert({
        id: messageId,
        replica_id: ws.id,
        chat_id: agent2Chat,
        content: 'use agent_3 here',
        status: 'running',
        queue_position: 1,
        coding_agent: 'agent_3',
      });
      expect((await gatewayJson('/v1/ai-gateway/agent_3/v1/chat/completions', { key: ws.key, keyIn: 'bearer', body: { model: 'a1-large', messages: [] } })).status).to.equal(200);
      await harness().database.db('replica_messages').where({ replica_id: ws.id, id: messageId }).update({ status: 'completed' });
      expect((await gatewayJson('/v1/ai-gateway/agent_3/v1/chat/completions', { key: ws.key, keyIn: 'bearer', body: { model: 'a1-large', messages: [] } })).status).to.equal(403);
    });

    it('refuses a model the organization has not enabled, in the provider shape, before anything reaches the provider', async () => {
      const org = await newOrg('gateway');
      for (const agent of ['agent_3', 'agent_4']) await setCredential(org.org_api_key, 'organization', agent, { kind: 'api_key', secret: `${ORG_SECRET}-${agent}` });
      const ws = await workspace(org, { agent: 'agent_4', chats: ['agent_3'] });
      const chat = (body: unknown, options: CallOptions = {}) => gatewayJson('/v1/ai-gateway/agent_4/v1/chat/completions', { key: ws.key, keyIn: 'bearer', body, ...options });

      // Before an admin enables models, the router's models are all allowed.
      expect((await chat({ model: 'moonshotai/kimi-k2.6', messages: [] })).status).to.equal(200);
      const enabled = await as(org.org_api_key).put('/v1/ai-gateway/enabled-models', { source: 'source_b', model_ids: ['z-ai/glm-5.2', 'qwen/qwen3-coder'] });
      expect(enabled.status, JSON.stringify(enabled.body)).to.equal(200);

      expect((await chat({ model: 'qwen/qwen3-coder', stream: true, messages: [{ role: 'user', content: 'hi' }] })).status).to.equal(200);
      const refused = await chat({ model: 'moonshotai/kimi-k2.6', messages: [{ role: 'user', content: 'hi' }] });
      expect(refused.status).to.equal(403);
      expect(refused.body.error).to.include({ type: 'invalid_request_error', code: 'model_not_enabled', param: 'model' });
      expect(refused.body.error.message).to.contain('moonshotai/kimi-k2.6').and.contain('z-ai/glm-5.2');

      // Every other way of naming a model the provider would act on.
      const spellings: Array<[string, string | Buffer, string?]> = [
        ['a second model key', '{"model":"z-ai/glm-5.2","messages":[],"model":"moonshotai/kimi-k2.6"}'],
        ['an escaped key', '{"mod\\u0065l":"moonshotai/kimi-k2.6","messages":[]}'],
        ['a fallback list', '{"model":"z-ai/glm-5.2","models":["moonshotai/kimi-k2.6"],"messages":[]}'],
        ['no model', '{"messages":[]}'],
        ['a model that is not a name', '{"model":["moonshotai/kimi-k2.6"],"messages":[]}'],
        ['a body that is not JSON', 'model=moonshotai/kimi-k2.6', 'application/x-www-form-urlencoded'],
        ['a model past the first MiB', `{"messages":[{"role":"user","content":"${'x'.repeat(1_100_000)}"}],"model":"z-ai/glm-5.2"}`],
      ];
      const testIds = [refused.testId];
      for (const [what, raw, contentType] of spellings) {
        const answer = await chat(undefined, { rawBody: raw, headers: { 'content-type': contentType ?? 'application/json' } });
        expect(answer.status, `${what}: ${JSON.stringify(answer.body).slice(0, 300)}`).to.equal(403);
        expect(answer.body.error.code, what).to.equal('model_not_enabled');
        testIds.push(answer.testId);
      }
      sawNothing(testIds);

      // A second model deep in a large body: the head (with an allowed model) went upstream, but
      // the body is cut before it ends, so the provider never has a request it can run.
      const deep = Buffer.from(`{"model":"z-ai/glm-5.2","messages":[{"role":"user","content":"${'y'.repeat(3 * 1024 * 1024)}"}],"model":"moonshotai/kimi-k2.6"}`);
      const cut = await chat(undefined, { rawBody: deep, headers: { 'content-type': 'application/json' } });
      expect(cut.status).to.equal(403);
      expect(cut.body.error.code).to.equal('model_not_enabled');
      const seen = await upstream.call(cut.testId);
      await until('the cut request to close', async () => seen.closedEarly || seen.received, 10_000, 20);
      expect(seen.received, 'the provider received the whole body').to.equal(false);
      const row = await until('the cut row', async () => (await usageRows(ws.id)).find((r) => r.status === 403), 10_000, 20);
      expect(row.model).to.equal('z-ai/glm-5.2');

      // GET (model lists) names no model; agent_3 allows its built-in list until an admin enables some.
      expect((await gatewayJson('/v1/ai-gateway/agent_4/v1/models', { key: ws.key, keyIn: 'bearer' })).status).to.equal(200);
      const builtin = await gatewayJson('/v1/ai-gateway/agent_3/v1/chat/completions', { key: ws.key, keyIn: 'bearer', body: { model: 'a1-large', messages: [] } });
      expect(builtin.status).to.equal(200);
      const unlisted = await gatewayJson('/v1/ai-gateway/agent_3/v1/chat/completions', { key: ws.key, keyIn: 'bearer', body: { model: 'gpt-test', messages: [] } });
      expect(unlisted.status).to.equal(403);
      expect(unlisted.body.error.message).to.contain('a1-large');
      sawNothing([unlisted.testId]);

      // An admin changing the list takes effect on the next request.
      expect((await as(org.org_api_key).put('/v1/ai-gateway/enabled-models', { source: 'source_b', model_ids: [] })).status).to.equal(200);
      expect((await chat({ model: 'moonshotai/kimi-k2.6', messages: [] })).status).to.equal(200);
    });
  });

  describe('forwarding', () => {
    let ws: Workspace;

    before(async () => {
      const org = await newOrg('gateway');
      for (const agent of ['agent_1', 'agent_2', 'agent_3', 'agent_4', 'agent_5']) {
        await setCredential(org.org_api_key, 'organization', agent, { kind: 'api_key', secret: `${ORG_SECRET}-${agent}` });
      }
      ws = await workspace(org, { chats: ALL_AGENTS });
    });

    it('passes method, path and query through, answers HEAD and OPTIONS, and keeps the model routes working', async () => {
      const get = await gatewayJson('/v1/ai-gateway/agent_4/v1/models?limit=5&q=a%20b', { key: ws.key, keyIn: 'bearer' });
      expect(get.status).to.equal(200);
      expect(get.body).to.include({ method: 'GET', url: '/agent_4/v1/models?limit=5&q=a%20b', bytes: 0 });
      expect((await upstream.call(get.testId)).headers.authorization).to.equal(`Bearer ${ORG_SECRET}-agent_4`);

      const head = await gateway('/v1/ai-gateway/agent_3/v1/models', { method: 'HEAD', key: ws.key, keyIn: 'bearer' });
      expect(head.res.status).to.equal(200);
      expect(await head.res.text()).to.equal('');
      expect((await upstream.call(head.testId)).method).to.equal('HEAD');

      const options = await gateway('/v1/ai-gateway/agent_2/v1/responses', { method: 'OPTIONS' });
      expect(options.res.status).to.equal(200);
      expect(options.res.headers.get('allow')).to.contain('POST').and.contain('GET');
      expect(upstream.calls.some((c) => c.headers['x-test-id'] === options.testId)).to.equal(false);

      const plain = await gatewayJson('/v1/ai-gateway/agent_5/upload', { key: ws.key, keyIn: 'bearer', rawBody: 'not json at all', headers: { 'content-type': 'text/plain' } });
      expect(plain.status).to.equal(200);
      expect(plain.body).to.include({ method: 'POST', url: '/agent_5/upload', bytes: 15 });

      const org = await newOrg('gateway');
      expect((await as(org.org_api_key).get('/v1/ai-gateway/models')).status).to.equal(200);
      expect((await as(org.org_api_key).get('/v1/ai-gateway/enabled-models')).body).to.have.property('enabled_models');
      expect((await request('POST', '/v1/ai-gateway/models', { key: org.org_api_key })).status).to.equal(405);
    });

    it('refuses with 400 and the Error body any path that would leave the base path, in any spelling, and forwards nothing', async () => {
      const escapes = [
        '/v1\\..\\..\\admin',
        '/v1\\..%5c..%5cadmin',
        '/v1%5c..%5c..%5cadmin',
        '/v1/..%5Cadmin',
        '/v1/../../admin',
        '/v1/%2e%2e/%2e%2e/admin',
        '/v1/%2E%2e/../admin',
        '/v1/.%2e/admin',
        '/v1/%2e./admin',
        '/v1%2f..%2f..%2fadmin',
        '/v1/%2e%2e%2f%2e%2e%2fadmin',
        '/v1/%252e%252e/%252e%252e/admin',
        '/v1/%252f..%252fadmin',
        '/v1/..;/..;/admin',
        '/v1/./messages',
        '/..',
        '/%2e%2e?x=1',
        '\\..\\admin',
      ];
      const before = upstream.calls.length;
      for (const agent of ['agent_1', 'agent_4']) {
        for (const escape of escapes) {
          const testId = randomUUID();
          const answer = await rawCall(`/v1/ai-gateway/${agent}${escape}`, { 'x-api-key': ws.key, authorization: `Bearer ${ws.key}`, 'x-test-id': testId });
          // A backslash right after the agent makes it another (unknown) agent's name.
          if (escape.startsWith('\\')) {
            expect(answer.status, `${agent}${escape}: ${JSON.stringify(answer.body)}`).to.equal(404);
            continue;
          }
          expect(answer.status, `${agent}${escape}: ${JSON.stringify(answer.body)}`).to.equal(400);
          expect(answer.body, escape).to.have.all.keys('error', 'details');
          expect(answer.body.error, escape).to.equal('Invalid path');
          expect(answer.body.details, escape).to.contain('path');
        }
      }
      // The provider saw nothing at all: no path outside a base, no credential.
      expect(upstream.calls.slice(before).map((c) => c.url)).to.deep.equal([]);

      // Dots, percent-escapes and backslash look-alikes inside a segment, and anything in the query, still pass.
      for (const fine of ['/v1/models/a1-large.v2', '/v1/a..b/c.', '/v1/files/name%20with%20space', '/v1/models?after=../../admin&q=%2e%2e%5c']) {
        const testId = randomUUID();
        const answer = await rawCall(`/v1/ai-gateway/agent_1${fine}`, { 'x-api-key': ws.key, 'x-test-id': testId });
        expect(answer.status, fine).to.equal(200);
        expect((await upstream.call(testId)).url, fine).to.equal(`/agent_1${fine}`);
      }
    });

    it('answers 404 in the OpenAI shape for an unknown agent', async () => {
      const answer = await gatewayJson('/v1/ai-gateway/agent_9/v1/messages', { key: ws.key, body: { model: 'm' } });
      expect(answer.status).to.equal(404);
      expect(answer.body.error).to.include({ type: 'invalid_request_error', code: 'unknown_url' });
      expect(answer.body.error.message).to.contain('agent_9');
    });

    it('streams server-sent events as they arrive: the first event reaches the client before the provider sends the last', async () => {
      const gate = randomUUID();
      const { res, testId } = await gateway(`/v1/ai-gateway/agent_1/slow?gate=${gate}`, { key: ws.key, body: { model: 'claude-stream-1', stream: true, messages: [] } });
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.equal('text/event-stream');
      expect(res.headers.get('content-encoding')).to.equal(null);
      const reader = res.body!.getReader();
      const state = { text: '' };
      await readUntil(reader, state, (t) => t.includes('event: content_block_start'));
      const call = await upstream.call(testId);
      expect(call.sentLast).to.equal(false);
      expect(state.text).not.to.contain('message_stop');

      upstream.release(gate);
      const all = await readUntil(reader, state, () => false);
      expect(call.sentLast).to.equal(true);
      expect(all).to.contain('event: message_delta').and.contain('event: message_stop');

      const row = await until('the stream usage row', async () => (await usageRows(ws.id)).find((r) => r.model === 'claude-stream-1'), 10_000, 20);
      expect(row).to.include({ status: 200, input_tokens: TOKENS.anthropicSse.input, output_tokens: TOKENS.anthropicSse.output });
    });

    it('records usage from the OpenAI Responses and Chat Completions formats, streamed and whole, and sums it per agent and model', async () => {
      const org = await newOrg('gateway');
      for (const agent of ['agent_1', 'agent_2', 'agent_4', 'agent_5']) {
        await setCredential(org.org_api_key, 'organization', agent, { kind: 'api_key', secret: `${ORG_SECRET}-${agent}` });
      }
      const mine = await workspace(org, { chats: ALL_AGENTS });
      const from = new Date(Date.now() - 60_000);
      const calls = [
        gatewayJson('/v1/ai-gateway/agent_2/v1/responses', { key: mine.key, keyIn: 'bearer', body: { model: 'gpt-test', input: 'hi', stream: true } }),
        gatewayJson('/v1/ai-gateway/agent_4/v1/chat/completions', {
          key: mine.key,
          keyIn: 'bearer',
          // Only the top-level "model" counts, wherever it stands.
          body: { messages: [{ role: 'user', content: 'hi', model: 'nested' }], metadata: { model: 'also-nested' }, stream: true, model: 'router/chat-model' },
        }),
        gatewayJson('/v1/ai-gateway/agent_5/v1/chat/completions', { key: mine.key, keyIn: 'bearer', body: { model: 'router/chat-model', messages: [] } }),
        gatewayJson('/v1/ai-gateway/agent_1/v1/messages', { key: mine.key, body: { model: 'claude-stream-1', stream: true, messages: [] } }),
      ];
      for (const call of calls) expect((await call).status).to.equal(200);
      await usageRow(mine.id, 4);
      const rows = await usageRows(mine.id);
      const byAgent = Object.fromEntries(rows.map((r) => [r.agent, r]));
      expect(byAgent.agent_2).to.include({ model: 'gpt-test', input_tokens: TOKENS.responses.input, output_tokens: TOKENS.responses.output });
      expect(byAgent.agent_4).to.include({ model: 'router/chat-model', input_tokens: TOKENS.chatSse.input, output_tokens: TOKENS.chatSse.output });
      expect(byAgent.agent_5).to.include({ model: 'router/chat-model', input_tokens: TOKENS.chatJson.input, output_tokens: TOKENS.chatJson.output });
      expect(byAgent.agent_1).to.include({ model: 'claude-stream-1', input_tokens: TOKENS.anthropicSse.input, output_tokens: TOKENS.anthropicSse.output });

      const totals = await harness().database.repos.aiGatewayUsage.summarize({ organizationId: org.organization_id, from, to: new Date(Date.now() + 60_000) });
      expect(totals.map((t) => [t.agent, t.model, t.requests, t.failed_requests, t.input_tokens, t.output_tokens])).to.deep.equal([
        ['agent_1', 'claude-stream-1', 1, 0, TOKENS.anthropicSse.input, TOKENS.anthropicSse.output],
        ['agent_2', 'gpt-test', 1, 0, TOKENS.responses.input, TOKENS.responses.output],
        ['agent_4', 'router/chat-model', 1, 0, TOKENS.chatSse.input, TOKENS.chatSse.output],
        ['agent_5', 'router/chat-model', 1, 0, TOKENS.chatJson.input, TOKENS.chatJson.output],
      ]);
      const later = await harness().database.repos.aiGatewayUsage.summarize({ organizationId: org.organization_id, from: new Date(Date.now() + 60_000), to: new Date(Date.now() + 120_000) });
      expect(later).to.deep.equal([]);
    });

    it("streams a 5 MB body through, beyond the JSON API's body limit", async () => {
      expect(harness().config.bodyLimitBytes).to.be.below(5_000_000);
      const payload = Buffer.from(JSON.stringify({ model: 'big-model', messages: [{ role: 'user', content: 'x'.repeat(5_000_000) }] }));
      const answer = await gatewayJson('/v1/ai-gateway/agent_2/v1/files', { key: ws.key, keyIn: 'bearer', rawBody: payload, headers: { 'content-type': 'application/json' } });
      expect(answer.status).to.equal(200);
      expect(answer.body).to.include({ method: 'POST', bytes: payload.length, sha256: createHash('sha256').update(payload).digest('hex') });
      const row = (await until('the big request row', async () => (await usageRows(ws.id)).find((r) => r.model === 'big-model'), 10_000, 20))!;
      expect(row).to.include({ agent: 'agent_2', status: 200, input_tokens: null, output_tokens: null });
    });
  });

  describe('failures', () => {
    let ws: Workspace;

    before(async () => {
      const org = await newOrg('gateway');
      await setCredential(org.org_api_key, 'organization', 'agent_1', { kind: 'api_key', secret: ORG_SECRET });
      await setCredential(org.org_api_key, 'organization', 'agent_2', { kind: 'api_key', secret: ORG_SECRET });
      ws = await workspace(org, { chats: ['agent_2'] });
    });

    it('answers 502 in the provider shape when the provider refuses the connection or drops it', async () => {
      await upstream.stop();
      let refused;
      try {
        refused = await gatewayJson('/v1/ai-gateway/agent_1/v1/messages', { key: ws.key, body: { model: 'refused-model', messages: [] } });
      } finally {
        await upstream.start();
      }
      expect(refused.status).to.equal(502);
      expect(refused.body).to.deep.include({ type: 'error' });
      expect(refused.body.error.type).to.equal('api_error');
      expect(refused.body.error.message).to.contain('ECONNREFUSED');

      const reset = await gatewayJson('/v1/ai-gateway/agent_2/reset', { key: ws.key, keyIn: 'bearer', body: { model: 'reset-model' } });
      expect(reset.status).to.equal(502);
      expect(reset.body.error).to.include({ type: 'server_error' });

      const rows = await until('both failure rows', async () => {
        const found = await usageRows(ws.id);
        return found.filter((r) => r.status === 502).length === 2 && found;
      }, 10_000, 20);
      expect(rows.filter((r) => r.status === 502).map((r) => r.model).sort()).to.deep.equal(['refused-model', 'reset-model']);
    });

    for (const size of [96 * 1024, 4 * 1024 * 1024]) {
      it(`answers 502, records 502 and logs the warning for a ${size / 1024} KB prompt to a provider that refuses the connection`, async () => {
        // undici destroys a request body of about 20 KB or more when the connection fails;
        // that is the gateway's own stream going, not the client leaving.
        const model = `refused-${size}`;
        const prompt = { model, max_tokens: 10, messages: [{ role: 'user', content: 'p'.repeat(size) }] };
        const logsBefore = harness().logs.length;
        await upstream.stop();
        let refused;
        try {
          refused = await gatewayJson('/v1/ai-gateway/agent_1/v1/messages', { key: ws.key, body: prompt });
        } finally {
          await upstream.start();
        }
        expect(refused.status).to.equal(502);
        expect(refused.body.type).to.equal('error');
        expect(refused.body.error.type).to.equal('api_error');
        expect(refused.body.error.message).to.contain('ECONNREFUSED');
        const row = await until('the refused request row', async () => (await usageRows(ws.id)).find((r) => r.model === model), 10_000, 20);
        expect(row.status).to.equal(502);
        const warning = await until('the unreachable warning', async () => harness().logs.slice(logsBefore).find((l) => l.includes('AI gateway upstream unreachable') && l.includes(ws.id)), 10_000, 20);
        expect(warning).to.contain('ECONNREFUSED');
        expect(warning).not.to.contain(ORG_SECRET);
      });
    }

    it('records 499 for a client that disconnects while it is still sending its prompt', async () => {
      const testId = randomUUID();
      const head = Buffer.from(`{"model":"left-mid-body","messages":[{"role":"user","content":"`);
      const client = httpRequest(`${harness().baseUrl}/v1/ai-gateway/agent_1/v1/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': String(256 * 1024), 'x-api-key': ws.key, 'x-test-id': testId },
      });
      const clientClosed = new Promise<void>((resolve) => client.once('close', () => resolve()));
      client.on('error', () => undefined);
      client.write(Buffer.concat([head, Buffer.alloc(64 * 1024, 0x61)]));
      // The provider has the request: the gateway is streaming the prompt when the client leaves.
      const call = await upstream.call(testId);
      client.destroy();
      await clientClosed;
      await until('the provider request to close', async () => call.closedEarly, 10_000, 20);
      const row = await until('the abandoned request row', async () => (await usageRows(ws.id)).find((r) => r.model === 'left-mid-body'), 10_000, 20);
      expect(row.status).to.equal(499);
      expect(call.received).to.equal(false);
    });

    it('cancels the upstream request when the client goes away, before or during the answer', async () => {
      const duringAbort = new AbortController();
      const during = await gateway('/v1/ai-gateway/agent_1/hang', { key: ws.key, body: { model: 'hang-model', stream: true }, signal: duringAbort.signal });
      expect(during.res.status).to.equal(200);
      await readUntil(during.res.body!.getReader(), { text: '' }, (t) => t.includes('message_start'));
      const duringCall = await upstream.call(during.testId);
      expect(duringCall.closedEarly).to.equal(false);
      duringAbort.abort();
      await until('the upstream request to close', async () => duringCall.closedEarly, 10_000, 20);

      const beforeAbort = new AbortController();
      const silentId = randomUUID();
      const pending = gateway('/v1/ai-gateway/agent_2/hang-headers', {
        key: ws.key,
        keyIn: 'bearer',
        body: { model: 'silent-model' },
        headers: { 'x-test-id': silentId },
        signal: beforeAbort.signal,
      });
      const settled = pending.then(
        () => 'answered',
        (err: Error) => err.name,
      );
      const beforeCall = await upstream.call(silentId);
      beforeAbort.abort();
      expect(await settled).to.equal('AbortError');
      await until('the silent upstream request to close', async () => beforeCall.closedEarly, 10_000, 20);

      const rows = await until('both abort rows', async () => {
        const found = await usageRows(ws.id);
        return found.filter((r) => r.status === 499 && r.model !== 'left-mid-body').length === 2 && found;
      }, 10_000, 20);
      const aborted = rows.filter((r) => r.status === 499 && r.model !== 'left-mid-body');
      expect(aborted.map((r) => r.model).sort()).to.deep.equal(['hang-model', 'silent-model']);
      expect(aborted.find((r) => r.model === 'hang-model')).to.include({ input_tokens: TOKENS.anthropicSse.input });
    });
  });

  it('documents the gateway as one POST and one GET operation in /openapi.json', async () => {
    const doc = await request('GET', '/openapi.json');
    const gatewayPaths = Object.keys(doc.body.paths).filter((p) => p.startsWith('/v1/ai-gateway/{agent}'));
    expect(gatewayPaths).to.have.length(1);
    const operations = doc.body.paths[gatewayPaths[0]!];
    expect(Object.keys(operations).sort()).to.deep.equal(['get', 'post']);
    expect(operations.post.operationId).to.equal('proxyAiGateway');
    expect(operations.post.security).to.deep.equal([]);
  });
});
