/**
 * The MCP server through the SDK's own client, over both transports: `hangar mcp` spawned on
 * stdio, and POST /v1/mcp on the running API. Its tools act through the real API, so the rows
 * they read are written directly (activitySupport) or by the API itself, and what one
 * organization's key cannot reach over HTTP it cannot reach through a tool either.
 */
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { TOOL_NAMES } from '../../../src/mcp/tools';
import { startApiProcess, type ApiProcessHandle } from '../../support/apiProcess';
import { harness } from '../../support/harness';
import { as, errorOf, newOrg } from '../../support/http';
import { until } from '../../support/wait';
import { insertChat, insertMessage, insertReplica } from '../replicas/activitySupport';

const HANGAR = join(__dirname, '..', '..', '..', 'scripts', 'hangar');
const MISSING = '00000000-0000-4000-8000-000000000000';

interface ToolAnswer {
  isError: boolean;
  text: string;
  /** The parsed text of a successful answer. */
  data: any;
  structured: unknown;
}

describe('the MCP server', function () {
  this.timeout(180_000);
  const open: Client[] = [];
  const stderr: string[] = [];

  afterEach(async () => {
    for (const client of open.splice(0)) await client.close();
  });

  async function overHttp(key: string, baseUrl = harness().baseUrl): Promise<Client> {
    const client = new Client({ name: 'hangar-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${baseUrl}/v1/mcp`), { requestInit: { headers: { Authorization: `Bearer ${key}` } } }));
    open.push(client);
    return client;
  }

  async function overStdio(key: string): Promise<Client> {
    const transport = new StdioClientTransport({
      command: HANGAR,
      args: ['mcp'],
      // No data directory to fall back on: the settings are these two.
      env: { HANGAR_URL: harness().baseUrl, HANGAR_API_KEY: key, HANGAR_DATA_DIR: '/nonexistent-hangar-data' },
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk.toString('utf8')));
    const client = new Client({ name: 'hangar-test', version: '1.0.0' });
    await client.connect(transport);
    open.push(client);
    return client;
  }

  async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<ToolAnswer> {
    const result = await client.callTool({ name, arguments: args });
    const text = (result.content as Array<{ type: string; text?: string }>).map((c) => c.text ?? '').join('');
    return { isError: result.isError === true, text, data: result.isError ? null : JSON.parse(text), structured: result.structuredContent };
  }

  for (const transport of ['stdio', 'http'] as const) {
    it(`lists exactly the twelve tools, each with an input schema (${transport})`, async () => {
      const org = await newOrg('mcp-tools');
      const client = transport === 'stdio' ? await overStdio(org.org_api_key) : await overHttp(org.org_api_key);
      expect(client.getServerVersion()).to.include({ name: 'hangar' });
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).to.deep.equal([...TOOL_NAMES].sort());
      for (const tool of tools) {
        expect(tool.inputSchema.type, tool.name).to.equal('object');
        expect(tool.description, tool.name).to.be.a('string').with.length.above(20);
      }
      const schema = (name: string) => tools.find((t) => t.name === name)!.inputSchema;
      expect(schema('create_replica').required).to.have.members(['name', 'message']);
      expect(schema('read_replica_history').required).to.deep.equal(['replica_id']);
      expect(Object.keys(schema('read_replica_history').properties ?? {})).to.have.members(['replica_id', 'chat_id', 'limit', 'offset']);
      expect(schema('delete_chat').required).to.have.members(['replica_id', 'chat_id']);
      expect(tools.find((t) => t.name === 'delete_replica')!.annotations).to.include({ destructiveHint: true });
    });

    it(`reads replicas, chats, history and hook logs through the API (${transport})`, async () => {
      const org = await newOrg('mcp-reads');
      const replica = await insertReplica(org.organization_id);
      const chat = await insertChat(replica, { title: 'Fix the build' });
      const messageId = await insertMessage(replica, chat, { status: 'completed' });
      const { replicaLogs } = harness().database.repos;
      for (const [i, type] of ['agent_1-assistant', 'agent_1-result', 'agent_1-assistant'].entries()) {
        await replicaLogs.appendAgentEvent({ replicaId: replica, chatId: chat, messageId, timestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(), type, payload: { n: i } });
      }
      await replicaLogs.insertHookLogs(replica, [
        { kind: 'start', hook_type: 'environment_start', hook_name: 'install', script: 'npm ci', output: 'added 12 packages', output_total_chars: 17, exit_code: 0, timed_out: false },
      ]);
      const client = transport === 'stdio' ? await overStdio(org.org_api_key) : await overHttp(org.org_api_key);

      const list = await call(client, 'list_replicas', { limit: 5 });
      expect(list.isError).to.equal(false);
      expect(list.data.replicas.map((r: { id: string }) => r.id)).to.deep.equal([replica]);
      expect(list.data).to.include({ total: 1, page: 1, limit: 5 });
      expect(list.structured).to.deep.equal(list.data);

      // The same answer as the API's own, field for field.
      const viaApi = (await as(org.org_api_key).get(`/v1/replica/${replica}`)).body;
      const got = await call(client, 'get_replica', { replica_id: replica });
      expect(got.data).to.deep.equal(viaApi);
      expect(got.data.replica.chats.map((c: { id: string }) => c.id)).to.deep.equal([chat]);

      const chats = await call(client, 'list_chats', { replica_id: replica });
      expect(chats.data).to.deep.include({ waking: false });
      expect(chats.data.chats).to.have.length(1);
      expect(chats.data.chats[0]).to.include({ id: chat, title: 'Fix the build', provider: 'agent_1', processing: false });

      // Paged backwards from the newest: the last two, with one older left.
      const history = await call(client, 'read_replica_history', { replica_id: replica, chat_id: chat, limit: 2 });
      expect(history.data).to.include({ thread_id: chat, total: 3, has_more: true });
      expect(history.data.events.map((e: { payload: { n: number } }) => e.payload.n)).to.deep.equal([1, 2]);
      const older = await call(client, 'read_replica_history', { replica_id: replica, chat_id: chat, limit: 2, offset: 2 });
      expect(older.data.events.map((e: { payload: { n: number } }) => e.payload.n)).to.deep.equal([0]);
      expect(older.data.has_more).to.equal(false);

      const hooks = await call(client, 'get_replica_hooks', { replica_id: replica });
      expect(hooks.data.warm_hooks.logs).to.deep.equal([]);
      expect(hooks.data.start_hooks.logs).to.have.length(1);
      expect(hooks.data.start_hooks.logs[0]).to.include({ hookName: 'install', output: 'added 12 packages', exitCode: 0 });
    });
  }

  it('creates and deletes chats, sends a message and deletes a replica', async () => {
    const org = await newOrg('mcp-writes');
    const replica = await insertReplica(org.organization_id);
    const client = await overHttp(org.org_api_key);

    const created = await call(client, 'create_chat', { replica_id: replica, provider: 'agent_2', title: 'Second opinion', client_request_id: 'req-1' });
    expect(created.isError, created.text).to.equal(false);
    expect(created.data).to.include({ provider: 'agent_2', title: 'Second opinion', processing: false });
    const chats = (await as(org.org_api_key).get(`/v1/replica/${replica}/chats`)).body.chats;
    expect(chats.map((c: { id: string }) => c.id)).to.deep.equal([created.data.id]);

    // The message is queued in that chat as the API queues any (no workflow runs for this row).
    const sent = await call(client, 'send_replica_message', { replica_id: replica, chat_id: created.data.id, message: 'Run the tests' });
    expect(sent.isError, sent.text).to.equal(false);
    expect(sent.data).to.include({ status: 'sent', chat_id: created.data.id });
    const queued = await harness().database.db('replica_messages').where({ id: sent.data.message_id }).first();
    expect(queued).to.include({ replica_id: replica, chat_id: created.data.id, content: 'Run the tests' });

    // A model's malformed call is refused by the tool's schema, before the API.
    const invalid = await call(client, 'send_replica_message', { replica_id: replica, message: '' });
    expect(invalid.isError).to.equal(true);
    expect(invalid.text).to.match(/Input validation error/).and.match(/message/);
    const unknownField = await call(client, 'create_chat', { replica_id: replica, provider: 'agent_1', colour: 'red' });
    expect(unknownField.isError).to.equal(true);
    expect(unknownField.text).to.match(/colour/);
    // And what only the API knows (a chat id of no chat here) comes back as its 400.
    const noSuchChat = await call(client, 'send_replica_message', { replica_id: replica, chat_id: MISSING, message: 'hello' });
    expect(noSuchChat.isError).to.equal(true);
    expect(noSuchChat.text).to.equal('Hangar answered 400: Invalid body: body.chat_id: no such chat in this replica');

    const deleted = await call(client, 'delete_chat', { replica_id: replica, chat_id: created.data.id });
    expect(deleted.data).to.deep.equal({ success: true });
    expect((await as(org.org_api_key).get(`/v1/replica/${replica}/chats`)).body.chats).to.deep.equal([]);

    expect((await call(client, 'delete_replica', { replica_id: replica })).data).to.deep.equal({ success: true });
    expect((await as(org.org_api_key).get(`/v1/replica/${replica}`)).status).to.equal(404);
  });

  it('calls the API back on an IPv6 listener', async () => {
    // A second listener of the same API on the IPv6 loopback: the tools' calls must reach it there.
    const server = await harness().api.listen(0, '::1');
    try {
      const { port } = server.address() as AddressInfo;
      const org = await newOrg('mcp-ipv6');
      const replica = await insertReplica(org.organization_id);
      const client = await overHttp(org.org_api_key, `http://[::1]:${port}`);
      expect((await call(client, 'get_replica', { replica_id: replica })).data.replica.id).to.equal(replica);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('lists the repositories and repository sets of the caller’s organization only', async () => {
    const org = await newOrg('mcp-repos');
    const other = await newOrg('mcp-repos-other');
    const repository = await harness().admin.addRepository({ organizationId: org.organization_id, url: 'https://git.example.com/acme/app.git' });
    await harness().admin.addRepository({ organizationId: other.organization_id, url: 'https://git.example.com/other/secret.git' });
    const set = await harness().admin.addRepositorySet({ organizationId: org.organization_id, name: 'frontend', description: 'The web app', repositoryIds: [repository.id] });
    const client = await overHttp(org.org_api_key);

    expect((await call(client, 'list_repositories')).data).to.deep.equal({ repositories: [repository] });
    const sets = await call(client, 'list_repository_sets');
    expect(sets.data.repository_sets).to.have.length(1);
    expect(sets.data.repository_sets[0]).to.deep.include({ id: set.id, name: 'frontend', description: 'The web app', repositories: [repository] });
  });

  it("answers an API error as an error result with the Error body's text, and another organization's replica as a missing one", async () => {
    const org = await newOrg('mcp-errors');
    const other = await newOrg('mcp-errors-other');
    const theirs = await insertReplica(other.organization_id);
    const client = await overHttp(org.org_api_key);

    const missing = await call(client, 'get_replica', { replica_id: MISSING });
    const body = errorOf(await as(org.org_api_key).get(`/v1/replica/${MISSING}`));
    expect(missing.isError).to.equal(true);
    expect(missing.text).to.equal(`Hangar answered 404: ${body.error}${body.details ? `: ${body.details}` : ''}`);
    expect(missing.structured).to.deep.equal({ status: 404, ...body });

    // Another organization's replica: the very answer a replica that does not exist gets.
    for (const tool of ['get_replica', 'list_chats', 'read_replica_history', 'get_replica_hooks', 'delete_replica']) {
      const answer = await call(client, tool, { replica_id: theirs });
      expect(answer.isError, tool).to.equal(true);
      expect(answer.text, tool).to.equal(missing.text);
    }
    expect((await call(client, 'send_replica_message', { replica_id: theirs, message: 'hi' })).text).to.equal(missing.text);
    expect((await call(client, 'list_replicas')).data.replicas).to.deep.equal([]);
    // Their replica is untouched (the delete above was refused).
    expect((await as(other.org_api_key).get(`/v1/replica/${theirs}`)).status).to.equal(200);
  });

  it('refuses POST /v1/mcp without a valid key with 401 and the Error body, before any MCP', async () => {
    const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } };
    const post = (headers: Record<string, string>) =>
      fetch(`${harness().baseUrl}/v1/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
        body: JSON.stringify(initialize),
      });
    for (const headers of [{}, { authorization: 'Bearer not-a-key' }] as Array<Record<string, string>>) {
      const res = await post(headers);
      expect(res.status).to.equal(401);
      const body = (await res.json()) as { error?: unknown; details?: unknown };
      expect(body.error).to.be.a('string');
      expect(body).to.have.property('details');
    }
    const client = new Client({ name: 'hangar-test', version: '1.0.0' });
    const refused = await client.connect(new StreamableHTTPClientTransport(new URL(`${harness().baseUrl}/v1/mcp`))).catch((err: unknown) => err);
    // The SDK's client reports the status and the Error body as it read them.
    expect((refused as { code?: unknown }).code).to.equal(401);
    expect(String(refused)).to.include('"error":"Invalid or missing API key"');
  });

  it('answers protocol errors as JSON-RPC errors, and what is no MCP request with the Error body', async () => {
    const org = await newOrg('mcp-protocol');
    const send = async (method: string, body: string | undefined, accept = 'application/json, text/event-stream') => {
      const res = await fetch(`${harness().baseUrl}/v1/mcp`, {
        method,
        headers: { authorization: `Bearer ${org.org_api_key}`, accept, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body,
      });
      return { status: res.status, allow: res.headers.get('allow'), body: (await res.json()) as any };
    };
    const ping = JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'ping' });
    // Stateless: a request needs no session, so a ping answers on its own.
    expect(await send('POST', ping)).to.deep.include({ status: 200, body: { jsonrpc: '2.0', id: 7, result: {} } });

    const notAcceptable = await send('POST', ping, 'application/json');
    expect(notAcceptable.status).to.equal(406);
    expect(notAcceptable.body.jsonrpc).to.equal('2.0');
    expect(notAcceptable.body.error.message).to.match(/Not Acceptable/);
    const notJsonRpc = await send('POST', JSON.stringify({ hello: 'world' }));
    expect(notJsonRpc.status).to.equal(400);
    expect(notJsonRpc.body.error).to.include({ code: -32700 });

    const empty = await send('POST', '[]');
    expect(empty.status).to.equal(400);
    expect(empty.body.error).to.equal('Invalid body');
    expect(await send('POST', '{"jsonrpc":')).to.have.property('status', 400);
    // No server-to-client stream and no session to end: only POST is served.
    for (const method of ['GET', 'DELETE']) {
      const answer = await send(method, undefined);
      expect(answer).to.deep.include({ status: 405, allow: 'POST' });
      expect(answer.body.error).to.equal('Method not allowed');
    }
  });

  it('never writes the key to the stdio server’s log', async () => {
    const org = await newOrg('mcp-stdio-log');
    const client = await overStdio(org.org_api_key);
    await call(client, 'list_replicas');
    await call(client, 'get_replica', { replica_id: MISSING });
    expect(stderr.join('')).to.include('hangar mcp').and.not.include(org.org_api_key);
  });

  describe('on an API process with small limits', () => {
    let api: ApiProcessHandle;
    before(async () => {
      api = await startApiProcess({
        // A burst of 3 that takes 100 s to refill; bodies that carry messages up to 4 KiB.
        HANGAR_RATE_LIMIT_KEY_BURST: '3',
        HANGAR_RATE_LIMIT_KEY_PER_SECOND: '0.01',
        HANGAR_REDIS_PREFIX: `hangar-mcp-${randomBytes(4).toString('hex')}:`,
        HANGAR_MESSAGE_BODY_LIMIT_BYTES: '4096',
      });
    });
    after(() => api?.close());

    it("counts the MCP request and each tool's API call against the caller's key", async () => {
      const org = await newOrg('mcp-rate');
      // initialize and notifications/initialized take two tokens, the tools/call POST the third…
      const client = await overHttp(org.org_api_key, api.url);
      const starved = await call(client, 'list_repositories');
      // …so the tool's own call of the API finds the bucket empty.
      expect(starved.isError).to.equal(true);
      expect(starved.text).to.equal('Hangar answered 429: Too many requests: an API key may send 3 requests at once and 0.01 a second; retry in 100 s (retry after 100 s)');
      // And the next MCP request is refused before the SDK sees it.
      const refused = await client.listTools().catch((err: unknown) => err);
      expect((refused as { code?: unknown }).code).to.equal(429);
      expect(String(refused)).to.include('"error":"Too many requests"');
    });

    it('refuses a body over the limit for messages with 413 and the Error body', async () => {
      const org = await newOrg('mcp-size');
      const call = { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'send_replica_message', arguments: { replica_id: MISSING, message: 'x'.repeat(5000) } } };
      const res = await fetch(`${api.url}/v1/mcp`, {
        method: 'POST',
        headers: { authorization: `Bearer ${org.org_api_key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify(call),
      });
      expect(res.status).to.equal(413);
      expect(await res.json()).to.deep.equal({ error: 'Request body too large', details: 'the limit for this operation is 4096 bytes (4 KiB)' });
    });
  });

  it('creates a real replica that comes up and answers, then deletes it (create_replica end to end)', async () => {
    const org = await newOrg('mcp-create');
    const client = await overHttp(org.org_api_key);
    const refused = await call(client, 'create_replica', { name: 'has spaces', message: 'hello' });
    expect(refused.isError).to.equal(true);
    expect(refused.text).to.match(/Input validation error/).and.match(/name/);

    const created = await call(client, 'create_replica', { name: 'from-mcp', message: 'Say hello', coding_agent: 'agent_1' });
    expect(created.isError, created.text).to.equal(false);
    // It answers at once, while the workspace prepares.
    expect(created.data.replica).to.include({ name: 'from-mcp', status: 'preparing', source: 'api' });
    const id: string = created.data.replica.id;
    try {
      await until(
        'the replica to be active',
        async () => {
          const { status } = (await call(client, 'get_replica', { replica_id: id })).data.replica;
          if (status === 'error') throw new Error('the replica failed to start');
          return status === 'active';
        },
        120_000,
        500,
      );
      // The first message ran as the first turn: its events are in the history.
      const history = await until(
        'the first turn in the history',
        async () => {
          const page = (await call(client, 'read_replica_history', { replica_id: id })).data;
          return page.total > 0 && page;
        },
        60_000,
        500,
      );
      expect(history.coding_agent).to.equal('agent_1');
    } finally {
      const deleted = await call(client, 'delete_replica', { replica_id: id });
      expect(deleted.data).to.deep.equal({ success: true });
    }
    expect((await call(client, 'get_replica', { replica_id: id })).isError).to.equal(true);
    await until('the row to be gone', async () => (await harness().database.db('replicas').where({ id })).length === 0, 60_000);
  });
});
