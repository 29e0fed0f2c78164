/**
 * Several API processes behind one address: a client's requests land on any of them, so what
 * one process starts, another must show. Two full API processes (the suite's, and a second one
 * built the same way on its own connections) share only PostgreSQL, Redis and Temporal, as two
 * real processes do. One real workspace: its events stream, its terminal and its preview each
 * answer through the process that did not start them. (Presence across processes has its own
 * test: test/integration/presence/processes.test.ts.)
 */
import { expect } from 'chai';
import { createHangarClient, readServerSentEvents, type HangarClient, type ReplicaEvent } from '../../../client/src';
import { startApiProcess, type ApiProcessHandle } from '../../support/apiProcess';
import { harness } from '../../support/harness';
import { newOrg } from '../../support/http';
import { until } from '../../support/wait';
import { previewHost, raw, startApp, tokenOf } from '../previews/support';

const V = { 'X-Api-Version': '2026-05-17' };

describe('several API processes behind one address', function () {
  this.timeout(300_000);
  let second: ApiProcessHandle;
  let org: Awaited<ReturnType<typeof newOrg>>;
  let first: HangarClient;
  let workspaceId: string;
  const call = (base: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    fetch(base + path, {
      method,
      headers: { authorization: `Bearer ${org.org_api_key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  before(async () => {
    second = await startApiProcess();
    org = await newOrg('behind-one-address');
    first = createHangarClient({ baseUrl: harness().baseUrl, apiKey: org.org_api_key });
    // Created through the second process; a waiting turn keeps it active (the suite's idle timeout is short).
    const created = await call(second.url, 'POST', '/v1/replica', { name: 'two-apis', coding_agent: 'agent_1', message: '!sleep 600000' }, V);
    expect(created.status).to.equal(201);
    workspaceId = ((await created.json()) as { replica: { id: string } }).replica.id;
    await until('the workspace to be active with a recorded address', async () => {
      const row = await harness().database.db('replicas').where({ id: workspaceId }).first('status', 'container_address');
      return row?.status === 'active' && !!row.container_address;
    }, 180_000, 250);
  });
  after(async () => {
    if (workspaceId) await call(harness().baseUrl, 'DELETE', `/v1/replica/${workspaceId}`);
    await second?.close();
  });

  it("streams on one process what a request to the other did (the workspace's events, live)", async () => {
    // The answer's headers come once the second process follows the stream: what happens after is live.
    const stream = await call(second.url, 'GET', `/v1/replica/${workspaceId}/events`, undefined, { accept: 'text/event-stream' });
    expect(stream.status).to.equal(200);
    const chat = await first.call(first.api.POST('/v1/replica/{id}/chats', { params: { path: { id: workspaceId } }, body: { provider: 'agent_1', title: 'from the first process' } as never }));
    let found: ReplicaEvent | undefined;
    const reading = (async () => {
      for await (const message of readServerSentEvents(stream.body!)) {
        const event = JSON.parse(message.data) as ReplicaEvent;
        if (event.type === 'chat.created' && JSON.stringify(event.payload).includes(chat.id)) return (found = event);
      }
    })();
    await Promise.race([reading, until('the chat.created event on the second process', async () => found, 30_000, 50)]);
    expect(found!.id).to.match(/^\d+$/);
  });

  it('opens a terminal through one process, follows it through the other, and types through either', async () => {
    const created = await call(harness().baseUrl, 'POST', `/v1/workspaces/${workspaceId}/terminal/sessions`, { cols: 100, rows: 30 });
    expect(created.status).to.equal(201);
    const session = `/v1/workspaces/${workspaceId}/terminal/sessions/${((await created.json()) as { session: { id: string } }).session.id}`;
    const stream = await call(second.url, 'GET', `${session}/stream`, undefined, { accept: 'text/event-stream' });
    expect(stream.status).to.equal(200);
    let output = '';
    const reading = (async () => {
      for await (const message of readServerSentEvents(stream.body!)) {
        if (message.event === 'output') output += (JSON.parse(message.data) as { data: string }).data;
        if (output.includes('second-84')) return;
      }
    })();
    expect((await call(second.url, 'POST', `${session}/input`, { data: 'echo first-$((6*7))\n', generation: 0, sequence: 0 })).status).to.equal(200);
    expect((await call(harness().baseUrl, 'POST', `${session}/input`, { data: 'echo second-$((6*14))\n', generation: 0, sequence: 1 })).status).to.equal(200);
    await Promise.race([reading, until('both outputs on the second process', async () => output.includes('first-42') && output.includes('second-84'), 30_000, 50)]);
    expect(output).to.include('first-42').and.include('second-84');
    expect((await call(second.url, 'DELETE', session)).status).to.equal(200);
  });

  it("serves a preview shared through one process on the other's proxy", async () => {
    await startApp(`hangar-ws-${workspaceId}`);
    const shared = await call(harness().baseUrl, 'POST', `/v1/workspaces/${workspaceId}/previews`, { port: 3000 });
    expect(shared.status).to.be.oneOf([200, 201]);
    const { preview } = (await shared.json()) as { preview: { url: string } };
    expect(preview.url).to.match(/^http:\/\/3000-[0-9a-f]{32}\.localhost:\d+\/$/);
    const answer = await until('the app to answer through the second process', async () => {
      const res = await raw(second.url, 'POST', '/hello?from=second', { headers: previewHost(tokenOf(preview.url)), body: 'ping' });
      return res.status === 200 ? (res.json() as { method: string; url: string; body: string }) : undefined;
    }, 30_000, 200);
    expect(answer).to.deep.include({ method: 'POST', url: '/hello?from=second', body: 'ping' });
  });
});
