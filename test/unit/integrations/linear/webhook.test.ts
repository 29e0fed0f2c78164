import { createHmac } from 'node:crypto';
import { expect } from 'chai';
import {
  assignmentText,
  commentText,
  environmentTag,
  isFreshLinearTimestamp,
  linearEnvelope,
  linearThreadEvent,
  verifyLinearSignature,
} from '../../../../src/integrations/linear/webhook';
import { startFakeLinear, type FakeLinear, type FakeLinearWorkspace } from '../../../support/fakeLinear';

const sign = (raw: string, secret: string) => createHmac('sha256', secret).update(raw).digest('hex');

describe('integrations/linear/webhook', () => {
  let linear: FakeLinear;
  let ws: FakeLinearWorkspace;
  before(async () => {
    // Without a webhook URL the fake keeps its deliveries in `deliveries`.
    linear = await startFakeLinear();
    ws = linear.createWorkspace();
  });
  after(() => linear.close());

  const last = () => linearEnvelope(ws.deliveries.at(-1)!.payload)!;
  const push = (payload: Record<string, unknown>) => ws.deliveries.push({ payload, deliveryId: 'local', status: 0, body: null });

  it('verifies the hex HMAC-SHA256 of the raw body with the signing secret', () => {
    const raw = JSON.stringify({ organizationId: 'o', data: {} });
    const body = Buffer.from(raw);
    expect(verifyLinearSignature('s3cret', body, sign(raw, 's3cret'))).to.equal(true);
    expect(verifyLinearSignature('s3cret', body, sign(raw, 'other'))).to.equal(false);
    expect(verifyLinearSignature('s3cret', Buffer.from(raw + '\n'), sign(raw, 's3cret'))).to.equal(false);
    expect(verifyLinearSignature('s3cret', body, undefined)).to.equal(false);
    expect(verifyLinearSignature('s3cret', body, 'sha256=' + sign(raw, 's3cret'))).to.equal(false);
    expect(verifyLinearSignature('', body, sign(raw, ''))).to.equal(false);
  });

  it('accepts a webhookTimestamp within 60 seconds either way', () => {
    const now = 1_800_000_000_000;
    expect(isFreshLinearTimestamp(now, now)).to.equal(true);
    expect(isFreshLinearTimestamp(now - 60_000, now)).to.equal(true);
    expect(isFreshLinearTimestamp(now - 60_001, now)).to.equal(false);
    expect(isFreshLinearTimestamp(now + 61_000, now)).to.equal(false);
    expect(isFreshLinearTimestamp(String(now), now)).to.equal(false);
    expect(isFreshLinearTimestamp(undefined, now)).to.equal(false);
  });

  it('reads an issue assigned to the app (by update or at creation) as the thread\'s first message', async () => {
    const alice = ws.addUser('Alice Liddell', 'alice@example.com');
    const { issue } = await ws.createIssue(alice, { title: 'Fix login', description: 'Users cannot log in. [env:staging]' });
    expect(linearThreadEvent(last(), ws.app.id)).to.equal(null);

    await ws.assign(issue.id, ws.app.id, alice);
    const assigned = linearThreadEvent(last(), ws.app.id);
    expect(assigned).to.deep.include({ kind: 'assigned', by: { id: alice.id, name: 'Alice Liddell', email: 'alice@example.com' } });
    expect((assigned as { issue: unknown }).issue).to.deep.equal({
      id: issue.id,
      identifier: issue.identifier,
      title: 'Fix login',
      description: 'Users cannot log in. [env:staging]',
      url: issue.url,
      teamId: issue.teamId,
    });

    // Editing an issue that stays assigned is no new assignment; assigning someone else neither.
    push(ws.issuePayload('update', issue.id, alice, { title: 'Old title' }));
    expect(linearThreadEvent(last(), ws.app.id)).to.equal(null);
    await ws.assign(issue.id, alice.id, alice);
    expect(linearThreadEvent(last(), ws.app.id)).to.equal(null);

    await ws.createIssue(alice, { title: 'Born assigned', assigneeId: ws.app.id });
    expect(linearThreadEvent(last(), ws.app.id)).to.have.property('kind', 'assigned');
  });

  it('reads members\' comments as messages, never the app\'s own', async () => {
    const bob = ws.addUser('Bob', 'bob@example.com');
    const { issue } = await ws.createIssue(bob, { title: 'Comments' });
    await ws.comment(issue.id, bob, 'Also check the logout page.');
    const event = linearThreadEvent(last(), ws.app.id);
    expect(event).to.deep.include({ kind: 'comment', body: 'Also check the logout page.', by: { id: bob.id, name: 'Bob', email: 'bob@example.com' } });
    expect((event as { issue: { id: string; identifier: string } }).issue).to.deep.include({ id: issue.id, identifier: issue.identifier });

    await ws.comment(issue.id, ws.app, 'Working on it.');
    expect(linearThreadEvent(last(), ws.app.id)).to.equal(null);
  });

  it('reads an issue completed, canceled or deleted as the thread\'s end', async () => {
    const carol = ws.addUser('Carol', 'carol@example.com');
    for (const type of ['completed', 'canceled'] as const) {
      const { issue } = await ws.createIssue(carol, { title: type });
      await ws.moveTo(issue.id, 'started', carol);
      expect(linearThreadEvent(last(), ws.app.id)).to.equal(null);
      await ws.moveTo(issue.id, type, carol);
      expect(linearThreadEvent(last(), ws.app.id)).to.deep.equal({ kind: 'closed', issueId: issue.id });
    }
    const { issue } = await ws.createIssue(carol, { title: 'gone' });
    push(ws.issuePayload('remove', issue.id, carol));
    expect(linearThreadEvent(last(), ws.app.id)).to.deep.equal({ kind: 'closed', issueId: issue.id });
  });

  it('finds [env:name] and writes what the agent is told', () => {
    expect(environmentTag('Please fix. [env:staging]')).to.equal('staging');
    expect(environmentTag('[ENV: my env ]')).to.equal('my env');
    expect(environmentTag('no tag')).to.equal(null);
    expect(environmentTag(null)).to.equal(null);
    const issue = { id: 'i', identifier: 'ENG-1', title: 'Fix login', description: 'Steps…', url: 'https://linear.app/x/issue/ENG-1', teamId: null };
    expect(assignmentText(issue, { id: 'u', name: 'Alice', email: null })).to.equal(
      'Linear issue ENG-1: Fix login (assigned to you by Alice)\nhttps://linear.app/x/issue/ENG-1\n\nSteps…',
    );
    expect(commentText(issue, { id: 'u', name: 'Bob', email: null }, 'More.')).to.equal('Bob commented on Linear issue ENG-1:\n\nMore.');
  });

  it('is no delivery without an organization and data', () => {
    expect(linearEnvelope({ data: {} })).to.equal(null);
    expect(linearEnvelope({ organizationId: 'o' })).to.equal(null);
    expect(linearEnvelope('x')).to.equal(null);
  });
});
