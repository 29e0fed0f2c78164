import { expect } from 'chai';
import { parseEncryptionKeys } from '../../../../src/config';
import { createSecretBox, generateEncryptionKey } from '../../../../src/crypto/secretBox';
import type { SealedConnectionRow } from '../../../../src/db/connectionsRepository';
import { createLinearThreadAdapter, replyText } from '../../../../src/integrations/linear/adapter';
import { createLinearClient, LinearApiError } from '../../../../src/integrations/linear/api';
import type { ThreadBinding } from '../../../../src/integrations/threads/types';
import { createLogger } from '../../../../src/logger';
import { linearConnectionRow, startFakeLinear, type FakeLinear, type FakeLinearWorkspace } from '../../../support/fakeLinear';

const box = createSecretBox(parseEncryptionKeys(generateEncryptionKey('t')));

describe('integrations/linear adapter and API client', () => {
  let linear: FakeLinear;
  let ws: FakeLinearWorkspace;
  let connection: SealedConnectionRow;
  before(async () => {
    linear = await startFakeLinear();
    ws = linear.createWorkspace();
    connection = linearConnectionRow(ws, box, 'o1');
  });
  after(() => linear.close());

  const adapter = () =>
    createLinearThreadAdapter({
      connections: { findSealed: async (id) => (id === connection.id ? connection : null) },
      secretBox: box,
      apiUrl: linear.graphqlUrl,
      logger: createLogger({ level: 'error', write: () => undefined }),
    });

  async function binding(): Promise<ThreadBinding> {
    const alice = ws.addUser('Alice', 'alice@example.com');
    const { issue } = await ws.createIssue(alice, { title: 'Fix login' });
    return {
      id: 't1',
      organizationId: 'o1',
      provider: 'linear',
      connectionId: 'c1',
      threadKey: issue.id,
      replicaId: 'r1',
      chatId: 'ch1',
      userId: null,
      reference: { issueId: issue.id, identifier: issue.identifier },
      cursor: null,
      closedAt: null,
    };
  }

  it('acknowledges a new workspace with a comment, and says nothing on follow-ups', async () => {
    const b = await binding();
    const routing = { replicaId: 'r1', chatId: 'ch1', messageId: 'm1', created: true, waking: false };
    await adapter().acknowledge(b, routing);
    await adapter().acknowledge(b, { ...routing, created: false, waking: true });
    const comments = ws.commentsOn(b.threadKey);
    expect(comments).to.have.length(1);
    expect(comments[0]).to.include({ userId: ws.app.id });
    expect(comments[0]!.body).to.contain('r1');
    const call = linear.calls[linear.calls.length - 1]!;
    expect(call.authorization).to.equal(`Bearer ${ws.accessToken}`);
    expect(call.variables).to.deep.equal({ input: { issueId: b.threadKey, body: comments[0]!.body } });
  });

  it("posts the agent's answer with its pull requests, and says when a turn failed", async () => {
    const b = await binding();
    await adapter().reply(b, { replicaId: 'r1', text: 'Fixed the session check.', ok: true, error: null, pullRequestUrls: ['https://github.com/acme/app/pull/7'] });
    await adapter().reply(b, { replicaId: 'r1', text: '', ok: false, error: 'the agent stalled', pullRequestUrls: [] });
    expect(ws.commentsOn(b.threadKey).map((c) => c.body)).to.deep.equal([
      'Fixed the session check.\n\nPull requests:\n- https://github.com/acme/app/pull/7',
      "The agent's turn failed: the agent stalled",
    ]);
    expect(replyText({ replicaId: 'r', text: 'See https://github.com/a/b/pull/1', ok: true, error: null, pullRequestUrls: ['https://github.com/a/b/pull/1'] })).to.equal(
      'See https://github.com/a/b/pull/1',
    );
    expect(replyText({ replicaId: 'r', text: '  ', ok: true, error: null, pullRequestUrls: [] })).to.equal('The agent finished without a message.');
  });

  it("reads an author's email through user(id), null for someone unknown", async () => {
    const b = await binding();
    const dana = ws.addUser('Dana', 'dana@example.com');
    expect(await adapter().authorEmail!(b, { externalId: dana.id })).to.equal('dana@example.com');
    expect(await adapter().authorEmail!(b, { externalId: '00000000-0000-0000-0000-000000000000' })).to.equal(null);
  });

  it('turns Linear errors into LinearApiError: authentication, unknown fields, not found, transient', async () => {
    const good = createLinearClient({ apiUrl: linear.graphqlUrl, token: ws.apiKey });
    expect((await good.viewer()).id).to.equal(ws.app.id);
    expect(linear.calls[linear.calls.length - 1]!.authorization).to.equal(ws.apiKey);

    const stranger = createLinearClient({ apiUrl: linear.graphqlUrl, token: 'lin_oauth_nope' });
    const auth = await stranger.viewer().catch((e: unknown) => e);
    expect(auth).to.be.instanceOf(LinearApiError).and.to.include({ status: 400, code: 'AUTHENTICATION_ERROR' });

    const missing = await good.createComment('no-such-issue', 'x').catch((e: unknown) => e);
    expect(missing).to.be.instanceOf(LinearApiError).and.to.include({ code: 'INVALID_INPUT' });

    // The fake answers only the fields selected, and refuses fields Linear's schema lacks.
    const ask = (query: string) =>
      fetch(linear.graphqlUrl, { method: 'POST', headers: { 'content-type': 'application/json', authorization: ws.apiKey }, body: JSON.stringify({ query }) }).then((r) => r.json() as Promise<any>);
    expect(await ask('query { viewer { id } }')).to.deep.equal({ data: { viewer: { id: ws.app.id } } });
    const unknown = await ask('query { viewer { id nope } }');
    expect(unknown.errors[0]).to.deep.include({ message: 'Cannot query field "nope" on type "User".' });

    linear.failNext(1, 500, 'INTERNAL_SERVER_ERROR');
    const b = await binding();
    const transient = await adapter().authorEmail!(b, { externalId: ws.app.id }).catch((e: unknown) => e);
    expect(transient).to.be.instanceOf(LinearApiError).and.to.include({ status: 500 });
  });
});
