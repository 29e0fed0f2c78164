/** The Slack receiver's decisions, with its repositories, dispatcher and automation intake stubbed. */
import { expect } from 'chai';
import { parseEncryptionKeys } from '../../../../src/config';
import { createSecretBox, generateEncryptionKey } from '../../../../src/crypto/secretBox';
import { sealedField } from '../../../../src/crypto/sealedFields';
import type { SealedConnectionRow } from '../../../../src/db/connectionsRepository';
import { DomainError } from '../../../../src/domain/errors';
import { slackSignature } from '../../../../src/integrations/slack/signature';
import type { InboundThreadMessage } from '../../../../src/integrations/threads/types';
import { createLogger } from '../../../../src/logger';
import { createSlackReceiver } from '../../../../src/services/receivers/slack';

const secretBox = createSecretBox(parseEncryptionKeys(generateEncryptionKey('unit')));
const NOW = 1_700_000_000;
const BOT = 'UBOT1';

function connection(team: string, secret: string, org: string): SealedConnectionRow {
  return {
    id: `conn-${team}`,
    organization_id: org,
    provider: 'slack',
    external_id: team,
    name: team,
    settings: { bot_user_id: BOT },
    created_by: null,
    created_at: new Date(),
    updated_at: new Date(),
    secrets_sealed: secretBox.seal(JSON.stringify({ bot_token: 'xoxb-1', signing_secret: secret }), sealedField('connections', 'secrets_sealed', `conn-${team}`)),
  };
}

describe('services/receivers/slack receiver', () => {
  const conns = [connection('T1', 'secret-one', 'org-1'), connection('T2', 'secret-two', 'org-2')];
  let dispatched: InboundThreadMessage[];
  let fired: Array<{ organizationId: string; deliveryId: string; channel: string }>;
  let seen: Set<string>;
  let bound: Set<string>;

  const receiver = () =>
    createSlackReceiver({
      repos: {
        connections: { findByExternalId: async (_p: string, id: string) => conns.find((c) => c.external_id === id) ?? null },
        integrationThreads: {
          find: async (k: { threadKey: string; organizationId: string }) =>
            bound.has(`${k.organizationId}|${k.threadKey}`) ? { replicaId: 'rep-1', closedAt: null } : null,
        },
      } as any,
      secretBox,
      threads: {
        message: async (m) => {
          const duplicate = seen.has(m.deliveryId);
          seen.add(m.deliveryId);
          if (!duplicate) dispatched.push(m);
          return { duplicate };
        },
        close: async () => ({ duplicate: false }),
      },
      automations: {
        accept: async (organizationId, message, deliveryId) => {
          fired.push({ organizationId, deliveryId, channel: message.channelId });
          return { matched: 1, duplicate: false };
        },
      },
      slackConnections: async () => conns,
      logger: createLogger({ level: 'error', write: () => undefined }),
      nowSeconds: () => NOW,
    });

  beforeEach(() => {
    dispatched = [];
    fired = [];
    seen = new Set();
    bound = new Set();
  });

  const signed = (body: unknown, opts: { secret?: string; ts?: number; retry?: number } = {}) => {
    const raw = Buffer.from(JSON.stringify(body));
    const ts = String(opts.ts ?? NOW);
    const headers: Record<string, string> = { 'x-slack-request-timestamp': ts, 'x-slack-signature': slackSignature(opts.secret ?? 'secret-one', ts, raw) };
    if (opts.retry) headers['x-slack-retry-num'] = String(opts.retry);
    return { headers, body: raw };
  };
  const envelope = (event: Record<string, unknown>, team = 'T1') => ({ type: 'event_callback', team_id: team, api_app_id: 'A1', event_id: `Ev${Math.random().toString(36).slice(2, 10)}`, event_time: NOW, event });
  const mention = (over: Record<string, unknown> = {}) => ({ type: 'app_mention', user: 'U1', text: `<@${BOT}> fix it [env:ops]`, ts: '1700000000.000100', channel: 'C1', ...over });
  const refusal = async (p: Promise<unknown>) => {
    const err = await p.then(() => null, (e: unknown) => e);
    expect(err).to.be.instanceOf(DomainError);
    return { kind: (err as DomainError).kind, message: (err as DomainError).message, details: (err as DomainError).details };
  };

  it('routes a mention to its thread: key, delivery, text, environment, reference, cursor', async () => {
    const answer = await receiver().accept(signed(envelope(mention())));
    expect(answer).to.deep.equal({ ok: true, routed: true, duplicate: false, automations: 1 });
    expect(dispatched).to.have.length(1);
    expect(dispatched[0]).to.deep.equal({
      provider: 'slack',
      organizationId: 'org-1',
      connectionId: 'conn-T1',
      threadKey: 'T1:C1:1700000000.000100',
      deliveryId: 'slack:T1:C1:1700000000.000100',
      text: 'fix it',
      author: { externalId: 'U1' },
      environmentName: 'ops',
      title: 'fix it',
      reference: { team_id: 'T1', channel_id: 'C1', thread_ts: '1700000000.000100', message_ts: '1700000000.000100' },
      cursor: '1700000000.000100',
    });
    expect(fired).to.deep.equal([{ organizationId: 'org-1', deliveryId: 'slack:T1:C1:1700000000.000100', channel: 'C1' }]);
  });

  it('gives an unknown team, a forged signature, another team’s secret and a stale timestamp the same 401, and starts nothing', async () => {
    const expected = { kind: 'unauthenticated', message: 'Invalid request signature', details: null };
    expect(await refusal(receiver().accept(signed(envelope(mention(), 'T9'))))).to.deep.equal(expected);
    expect(await refusal(receiver().accept(signed(envelope(mention()), { secret: 'forged' })))).to.deep.equal(expected);
    expect(await refusal(receiver().accept(signed(envelope(mention()), { secret: 'secret-two' })))).to.deep.equal(expected);
    expect(await refusal(receiver().accept(signed(envelope(mention()), { ts: NOW - 301 })))).to.deep.equal(expected);
    expect(await refusal(receiver().accept(signed(envelope(mention()), { ts: NOW + 301 })))).to.deep.equal(expected);
    expect(await refusal(receiver().accept({ headers: {}, body: Buffer.from(JSON.stringify(envelope(mention()))) }))).to.deep.equal(expected);
    expect(await refusal(receiver().accept({ headers: {}, body: Buffer.from('not json') }))).to.deep.equal(expected);
    expect(dispatched).to.have.length(0);
    expect(fired).to.have.length(0);
  });

  it('answers a signed url_verification with its challenge, whichever app signed it; an unsigned one is the 401', async () => {
    const challenge = { token: 't', challenge: 'c-123', type: 'url_verification' };
    expect(await receiver().accept(signed(challenge, { secret: 'secret-two' }))).to.deep.equal({ ok: true, challenge: 'c-123' });
    expect((await refusal(receiver().accept(signed(challenge, { secret: 'nobody' })))).kind).to.equal('unauthenticated');
  });

  it('does a retried or replayed delivery, and the same message as app_mention and message, once', async () => {
    const body = envelope(mention());
    await receiver().accept(signed(body));
    const retry = await receiver().accept(signed(body, { retry: 1 }));
    expect(retry).to.deep.include({ routed: false, duplicate: true });
    const twin = await receiver().accept(signed(envelope({ ...mention(), type: 'message', channel_type: 'channel' })));
    expect(twin).to.deep.include({ routed: false });
    expect(dispatched).to.have.length(1);
  });

  it('routes a direct message (not to automations), and a reply in a bound thread without a mention', async () => {
    await receiver().accept(signed(envelope({ type: 'message', channel_type: 'im', user: 'U1', text: 'hello', ts: '1700000000.000200', channel: 'D1' })));
    expect(dispatched.map((m) => m.threadKey)).to.deep.equal(['T1:D1:1700000000.000200']);
    expect(fired).to.have.length(0);

    const reply = { type: 'message', channel_type: 'channel', user: 'U2', text: 'more detail', ts: '1700000000.000900', thread_ts: '1700000000.000100', channel: 'C1' };
    const unbound = await receiver().accept(signed(envelope(reply)));
    expect(unbound).to.deep.include({ routed: false, automations: 1 });
    bound.add('org-1|T1:C1:1700000000.000100');
    const follow = await receiver().accept(signed(envelope({ ...reply, ts: '1700000000.000950' })));
    expect(follow).to.deep.include({ routed: true });
    expect(dispatched.at(-1)).to.deep.include({ threadKey: 'T1:C1:1700000000.000100', text: 'more detail', cursor: '1700000000.000950' });
    expect(dispatched.at(-1)!.reference).to.deep.equal({ team_id: 'T1', channel_id: 'C1', thread_ts: '1700000000.000100', message_ts: '1700000000.000950' });
  });

  it("never routes into another organization's thread", async () => {
    bound.add('org-2|T1:C1:1700000000.000100');
    const reply = { type: 'message', channel_type: 'channel', user: 'U2', text: 'x', ts: '1700000000.000900', thread_ts: '1700000000.000100', channel: 'C1' };
    expect(await receiver().accept(signed(envelope(reply)))).to.deep.include({ routed: false });
    expect(fired.map((f) => f.organizationId)).to.deep.equal(['org-1']);
  });

  it('ignores bot messages and edits, and refuses a malformed signed event with 400', async () => {
    expect(await receiver().accept(signed(envelope({ ...mention(), type: 'message', bot_id: 'B1' })))).to.deep.equal({ ok: true, ignored: 'a bot message' });
    expect(await receiver().accept(signed(envelope({ type: 'message', subtype: 'message_changed', channel: 'C1', ts: '1.2' })))).to.deep.include({ ignored: 'message subtype message_changed' });
    expect((await refusal(receiver().accept(signed(envelope({ ...mention(), ts: 'later' }))))).kind).to.equal('invalid');
    expect(dispatched).to.have.length(0);
  });
});
