import { createHmac, randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { parseEncryptionKeys } from '../../../../src/config';
import { createSecretBox, generateEncryptionKey } from '../../../../src/crypto/secretBox';
import type { SealedConnectionRow } from '../../../../src/db/connectionsRepository';
import type { ThreadRecord } from '../../../../src/db/integrationThreadsRepository';
import { DomainError } from '../../../../src/domain/errors';
import type { InboundThreadMessage, ThreadClosed } from '../../../../src/integrations/threads/types';
import { createLogger } from '../../../../src/logger';
import { createLinearReceiver } from '../../../../src/services/receivers/linear';
import { linearConnectionRow, startFakeLinear, type FakeLinear, type FakeLinearWorkspace } from '../../../support/fakeLinear';

const box = createSecretBox(parseEncryptionKeys(generateEncryptionKey('t')));

describe('services/receivers/linear receiver', () => {
  let linear: FakeLinear;
  let ws: FakeLinearWorkspace;
  let connection: SealedConnectionRow;
  const messages: InboundThreadMessage[] = [];
  const closes: ThreadClosed[] = [];
  const threads = new Map<string, ThreadRecord>();
  let now = Date.now();

  before(async () => {
    linear = await startFakeLinear();
    ws = linear.createWorkspace();
    connection = linearConnectionRow(ws, box, 'org-1');
  });
  after(() => linear.close());
  beforeEach(() => {
    messages.length = 0;
    closes.length = 0;
    now = Date.now();
  });

  const receiver = createLinearReceiver({
    connections: { findByExternalId: async (provider, id) => (provider === 'linear' && id === connection.external_id ? connection : null) },
    threads: { find: async (k) => threads.get(`${k.organizationId}|${k.provider}|${k.threadKey}`) ?? null },
    dispatcher: {
      message: async (m) => (messages.push(m), { duplicate: false }),
      close: async (c) => (closes.push(c), { duplicate: false }),
    },
    secretBox: box,
    logger: createLogger({ level: 'error', write: () => undefined }),
    now: () => now,
  });

  /** Runs a fake Linear action and hands its delivery (as Linear would send it) to the receiver. */
  async function deliver(
    action: () => Promise<unknown>,
    options: { secret?: string; signature?: string | null; deliveryId?: string | null; timestamp?: number } = {},
    from: FakeLinearWorkspace = ws,
  ) {
    await action();
    const captured = from.deliveries.at(-1)!.payload;
    const raw = JSON.stringify(options.timestamp === undefined ? captured : { ...captured, webhookTimestamp: options.timestamp });
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    const signature = options.signature === undefined ? createHmac('sha256', options.secret ?? from.webhookSecret).update(raw).digest('hex') : options.signature;
    if (signature !== null) headers['linear-signature'] = signature;
    if (options.deliveryId !== null) headers['linear-delivery'] = options.deliveryId ?? randomUUID();
    return receiver.accept({ headers, body: Buffer.from(raw), contentType: 'application/json' });
  }

  const refusal = async (p: Promise<unknown>) => {
    const err = await p.then(() => null, (e: unknown) => e);
    expect(err).to.be.instanceOf(DomainError);
    return err as DomainError;
  };

  it('hands an issue assigned to the app to the core, with the assigner, [env:name] and the issue as reference', async () => {
    const alice = ws.addUser('Alice', 'alice@example.com');
    const { issue } = await ws.createIssue(alice, { title: 'Fix login', description: 'Broken since Monday. [env:staging]' });
    const deliveryId = randomUUID();
    const answer = await deliver(() => ws.assign(issue.id, ws.app.id, alice), { deliveryId });
    expect(answer).to.deep.equal({ accepted: true, routed: 'message', duplicate: false });
    expect(messages).to.have.length(1);
    const m = messages[0]!;
    expect(m).to.deep.include({
      provider: 'linear',
      organizationId: 'org-1',
      connectionId: 'c1',
      threadKey: issue.id,
      deliveryId,
      environmentName: 'staging',
      title: `${issue.identifier} Fix login`,
      cursor: null,
    });
    expect(m.author).to.deep.equal({ externalId: alice.id, name: 'Alice', email: 'alice@example.com' });
    expect(m.reference).to.deep.equal({ issueId: issue.id, identifier: issue.identifier, url: issue.url, teamId: issue.teamId });
    expect(m.text).to.contain('Fix login').and.contain('Broken since Monday.').and.contain(issue.url);
  });

  it('forwards comments and closes only for an issue that has a workspace', async () => {
    const bob = ws.addUser('Bob', 'bob@example.com');
    const { issue } = await ws.createIssue(bob, { title: 'Follow-ups' });
    expect(await deliver(() => ws.comment(issue.id, bob, 'Before any workspace.'))).to.include({ routed: null });
    expect(await deliver(() => ws.moveTo(issue.id, 'completed', bob))).to.include({ routed: null });

    threads.set(`org-1|linear|${issue.id}`, {
      id: 't', organizationId: 'org-1', provider: 'linear', connectionId: 'c1', threadKey: issue.id, replicaId: 'r1', chatId: 'ch', userId: null,
      reference: { issueId: issue.id, identifier: issue.identifier }, cursor: null, closedAt: null, lastReplyMessageId: null, createdAt: '', updatedAt: '',
    });
    expect(await deliver(() => ws.comment(issue.id, bob, 'Also the logout page.'))).to.deep.equal({ accepted: true, routed: 'message', duplicate: false });
    expect(messages[0]).to.deep.include({ threadKey: issue.id, connectionId: 'c1', cursor: ws.commentsOn(issue.id).at(-1)!.id });
    expect(messages[0]!.text).to.equal(`Bob commented on Linear issue ${issue.identifier}:\n\nAlso the logout page.`);
    expect(await deliver(() => ws.comment(issue.id, ws.app, 'My own answer.'))).to.include({ routed: null });
    expect(messages).to.have.length(1);

    expect(await deliver(() => ws.moveTo(issue.id, 'canceled', bob))).to.deep.equal({ accepted: true, routed: 'close', duplicate: false });
    expect(closes).to.deep.equal([{ provider: 'linear', organizationId: 'org-1', threadKey: issue.id, deliveryId: closes[0]!.deliveryId }]);
  });

  it('refuses forged, unsigned, foreign, stale and unreadable deliveries before doing anything', async () => {
    const eve = ws.addUser('Eve', 'eve@example.com');
    const { issue } = await ws.createIssue(eve, { title: 'Target' });
    const assign = () => ws.assign(issue.id, ws.app.id, eve);
    for (const options of [{ secret: 'guessed' }, { signature: null }, { signature: 'zz' }, { timestamp: now - 61_000 }, { timestamp: now + 120_000 }]) {
      const err = await refusal(deliver(assign, options));
      expect(err.kind, JSON.stringify(options)).to.equal('unauthenticated');
    }
    const other = linear.createWorkspace();
    const foreign = await refusal(deliver(() => other.createIssue(other.addUser('X', 'x@example.com'), { title: 'x', assigneeId: other.app.id }), {}, other));
    expect(foreign.kind).to.equal('unauthenticated');
    const junk = await refusal(receiver.accept({ headers: {}, body: Buffer.from('{not json'), contentType: 'application/json' }));
    expect(junk.kind).to.equal('unauthenticated');
    const noDelivery = await refusal(deliver(assign, { deliveryId: null }));
    expect(noDelivery.kind).to.equal('invalid');
    expect(messages).to.deep.equal([]);
    expect(closes).to.deep.equal([]);
  });
});
