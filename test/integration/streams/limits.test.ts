/**
 * Caps on open event streams (docs/decisions/workspaces.md, "Event stream caps and backpressure"): an API
 * process of this suite's own with 2 streams per key, 3 per organization and 6 in all, on the
 * harness's database, Temporal and worker.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { harness } from '../../support/harness';
import { newOrg } from '../../support/http';
import { startStreamsApi, untilClosed, type ClientStream, type StreamsApi } from './support';

describe('event stream caps', function () {
  let api: StreamsApi;
  const opened: ClientStream[] = [];

  before(async () => {
    api = await startStreamsApi({ perKey: 2, perOrganization: 3, perProcess: 6 });
  });
  after(async () => {
    await api?.close();
  });
  // Every stream of a test is gone from the server before the next: the process cap starts empty.
  afterEach(async () => {
    for (const stream of opened.splice(0)) stream.close();
    await untilClosed(api);
  });

  async function open(key: string, path = '/v1/events', options: { method?: string; body?: unknown } = {}) {
    const stream = await api.open(path, key, options);
    opened.push(stream);
    return stream;
  }

  async function expectAccepted(key: string, path = '/v1/events') {
    const stream = await open(key, path);
    expect(stream.status, JSON.stringify(stream.status === 200 ? null : await stream.json())).to.equal(200);
    expect(stream.headers['content-type']).to.match(/^text\/event-stream/);
    return stream;
  }

  /** 429, `Retry-After` in seconds and the Error body naming the cap that was met. */
  async function expectRefused(stream: ClientStream, cap: RegExp) {
    expect(stream.status).to.equal(429);
    expect(stream.headers['retry-after']).to.match(/^[1-9]\d*$/);
    const body = await stream.json();
    expect(body).to.have.keys('error', 'details');
    expect(body.error).to.equal('Too many open event streams');
    expect(body.details).to.match(cap);
  }

  it('refuses a key past its cap with 429, Retry-After and the Error body, while another key of the organization gets a stream', async () => {
    const org = await newOrg('stream-caps');
    await expectAccepted(org.org_api_key);
    await expectAccepted(org.org_api_key);
    await expectRefused(await open(org.org_api_key), /an API key may hold 2 event streams/);
    await expectAccepted(org.admin.personal_api_key);
  });

  it('refuses an organization past its cap across its keys, and not another organization', async () => {
    const org = await newOrg('stream-caps');
    const member = await harness().admin.createUser({ organizationId: org.organization_id, email: `member-${randomUUID()}@example.com` });
    await expectAccepted(org.org_api_key);
    await expectAccepted(org.org_api_key);
    await expectAccepted(org.admin.personal_api_key);
    await expectRefused(await open(member.personal_api_key), /an organization may hold 3 event streams/);
    const elsewhere = await newOrg('stream-caps');
    await expectAccepted(elsewhere.org_api_key);
  });

  it('refuses anyone once the process holds its cap', async () => {
    for (let i = 0; i < 3; i++) {
      const org = await newOrg('stream-caps');
      await expectAccepted(org.org_api_key);
      await expectAccepted(org.admin.personal_api_key);
    }
    const late = await newOrg('stream-caps');
    await expectRefused(await open(late.org_api_key), /this server holds as many event streams as it may/);
  });

  it('frees a slot when the client goes away, when the stream ends, and when it fails before opening', async () => {
    const org = await newOrg('stream-caps');
    const key = org.org_api_key;
    const first = await expectAccepted(key);
    await expectAccepted(key);
    await expectRefused(await open(key), /an API key may hold 2/);

    // The client hangs up: once the server has seen it go, the key may open another.
    first.close();
    await untilClosed(api, [first]);
    const replacement = await expectAccepted(key);
    replacement.close();
    await untilClosed(api, [replacement]);

    // A stream that fails before it opens (an unknown workspace) gives its slot back at once.
    for (let i = 0; i < 3; i++) {
      const missing = await open(key, `/v1/replica/${randomUUID()}/events`);
      expect(missing.status).to.equal(404);
      expect((await missing.json()).error).to.equal('Replica not found');
    }

    // A stream that ends by itself (a hook test runs to `complete`) gives its slot back.
    const hook = await open(key, '/v1/environments/global/start-hooks/test/stream', { method: 'POST', body: { content: 'echo from-the-hook' } });
    expect(hook.status).to.equal(200);
    await hook.ended;
    expect(hook.events.at(-1)?.event).to.equal('complete');
    await untilClosed(api, [hook]);
    await expectAccepted(key);
  });

  it('puts every event-stream operation behind the caps, and documents its 429', async () => {
    const org = await newOrg('stream-caps');
    const key = org.org_api_key;
    const doc = (await api.request('GET', '/openapi.json', key)).body;
    const streaming: Array<{ method: string; path: string; operation: any }> = [];
    for (const [path, operations] of Object.entries<Record<string, any>>(doc.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        if (operation.responses?.['200']?.content?.['text/event-stream']) streaming.push({ method, path, operation });
      }
    }
    expect(streaming.map((s) => s.operation.operationId)).to.include.members([
      'streamOrganizationEvents',
      'streamReplicaEvents',
      'streamTerminalSession',
      'streamStartHookTest',
      'streamWarmPoolWorkspace',
    ]);
    for (const s of streaming) expect(s.operation.responses, s.operation.operationId).to.have.property('429');

    await expectAccepted(key);
    await expectAccepted(key);
    for (const s of streaming) {
      const path = s.path.replace(/\{[A-Za-z]+\}/g, () => randomUUID());
      const stream = await open(key, path, { method: s.method.toUpperCase(), body: s.method === 'post' ? { content: 'true' } : undefined });
      await expectRefused(stream, /an API key may hold 2/);
    }
  });
});
