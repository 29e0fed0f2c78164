import { expect } from 'chai';
import { loadConfig } from '../../../src/config';
import { departure, heartbeatBroadcasts, presenceView, type PresenceEntry } from '../../../src/domain/presence';

const ORG = '00000000-0000-4000-8000-00000000000a';
const USER = '00000000-0000-4000-8000-00000000000b';
const ENV = '00000000-0000-4000-8000-0000000000e1';
const WS1 = '00000000-0000-4000-8000-0000000000a1';
const WS2 = '00000000-0000-4000-8000-0000000000a2';

function entry(overrides: Partial<PresenceEntry> = {}): PresenceEntry {
  return {
    organizationId: ORG,
    userId: USER,
    displayName: 'Ada',
    avatarUrl: null,
    location: { type: 'environment', id: ENV },
    typing: false,
    lastSeenAt: 1_000,
    expiresAt: 31_000,
    ...overrides,
  };
}

/** `audience → type/change-or-reason`, easy to compare. */
const summary = (list: ReturnType<typeof heartbeatBroadcasts>) =>
  list.map(({ audience, event }) => {
    const where = audience.kind === 'organization' ? `org:${audience.organizationId}` : `ws:${audience.replicaId}`;
    const what = event.type === 'presence.changed' ? event.payload.change : event.payload.reason;
    return `${where} ${event.type} ${what}`;
  });

describe('presence rules', () => {
  it('shows an entry with ISO times and snake_case fields', () => {
    expect(presenceView(entry())).to.deep.equal({
      user_id: USER,
      display_name: 'Ada',
      avatar_url: null,
      location: { type: 'environment', id: ENV },
      typing: false,
      last_seen_at: new Date(1_000).toISOString(),
      expires_at: new Date(31_000).toISOString(),
    });
  });

  it('a first heartbeat is a join: the organization hears of it, and the workspace when it is one', () => {
    expect(summary(heartbeatBroadcasts(null, entry(), 1_000))).to.deep.equal([`org:${ORG} presence.changed joined`]);
    const inWorkspace = entry({ location: { type: 'workspace', id: WS1 } });
    const broadcasts = heartbeatBroadcasts(null, inWorkspace, 1_000);
    expect(summary(broadcasts)).to.deep.equal([`org:${ORG} presence.changed joined`, `ws:${WS1} presence.changed joined`]);
    expect(broadcasts[0]!.event.payload).to.deep.equal({ change: 'joined', member: presenceView(inWorkspace), previous_location: null });
  });

  it('a heartbeat that changes nothing but the deadline announces nothing', () => {
    const previous = entry();
    const current = entry({ lastSeenAt: 11_000, expiresAt: 41_000 });
    expect(heartbeatBroadcasts(previous, current, 11_000)).to.deep.equal([]);
  });

  it('a typing toggle goes to the organization and to the workspace', () => {
    const at = { type: 'workspace' as const, id: WS1 };
    const broadcasts = heartbeatBroadcasts(entry({ location: at }), entry({ location: at, typing: true, lastSeenAt: 2_000, expiresAt: 32_000 }), 2_000);
    expect(summary(broadcasts)).to.deep.equal([`org:${ORG} presence.changed typing`, `ws:${WS1} presence.changed typing`]);
    expect((broadcasts[0]!.event.payload as { member: { typing: boolean } }).member.typing).to.equal(true);
  });

  it('a move tells the organization where from, the old workspace that the member left and the new one that they arrived', () => {
    const previous = entry({ location: { type: 'workspace', id: WS1 } });
    const current = entry({ location: { type: 'workspace', id: WS2 }, lastSeenAt: 2_000, expiresAt: 32_000 });
    const broadcasts = heartbeatBroadcasts(previous, current, 2_000);
    expect(summary(broadcasts)).to.deep.equal([`org:${ORG} presence.changed moved`, `ws:${WS1} presence.left moved`, `ws:${WS2} presence.changed joined`]);
    expect(broadcasts[0]!.event.payload).to.include({ change: 'moved' }).and.to.have.deep.property('previous_location', { type: 'workspace', id: WS1 });
    // The old workspace's watchers see the member as they were there.
    expect(broadcasts[1]!.event.payload).to.deep.equal({ reason: 'moved', member: presenceView(previous) });
    expect(summary(heartbeatBroadcasts(previous, entry({ lastSeenAt: 2_000 }), 2_000))).to.deep.equal([`org:${ORG} presence.changed moved`, `ws:${WS1} presence.left moved`]);
  });

  it('a heartbeat after the deadline, before any sweep, announces the expiry and then a new join', () => {
    const previous = entry({ location: { type: 'workspace', id: WS1 }, typing: true });
    const current = entry({ location: { type: 'workspace', id: WS1 }, typing: true, lastSeenAt: 31_000, expiresAt: 61_000 });
    expect(summary(heartbeatBroadcasts(previous, current, 31_000))).to.deep.equal([
      `org:${ORG} presence.left expired`,
      `ws:${WS1} presence.left expired`,
      `org:${ORG} presence.changed joined`,
      `ws:${WS1} presence.changed joined`,
    ]);
    // One millisecond earlier it was still live: nothing changed.
    expect(heartbeatBroadcasts(previous, current, 30_999)).to.deep.equal([]);
  });

  it('a departure goes to the organization and to the workspace the member was in', () => {
    expect(summary(departure(entry(), 'left'))).to.deep.equal([`org:${ORG} presence.left left`]);
    expect(summary(departure(entry({ location: { type: 'workspace', id: WS2 } }), 'expired'))).to.deep.equal([`org:${ORG} presence.left expired`, `ws:${WS2} presence.left expired`]);
  });

  it('reads its settings: Redis optional, a prefix, the expiry in seconds', () => {
    expect(loadConfig({})).to.include({ redisUrl: undefined, redisPrefix: 'hangar:', presenceTtlMs: 30_000 });
    expect(loadConfig({ REDIS_URL: 'redis://127.0.0.1:6379/2', HANGAR_REDIS_PREFIX: 'team-a:', HANGAR_PRESENCE_TTL_SECONDS: '3' })).to.include({
      redisUrl: 'redis://127.0.0.1:6379/2',
      redisPrefix: 'team-a:',
      presenceTtlMs: 3000,
    });
    expect(() => loadConfig({ REDIS_URL: 'http://127.0.0.1:6379' })).to.throw(/REDIS_URL/);
    expect(() => loadConfig({ HANGAR_REDIS_PREFIX: 'has space' })).to.throw(/HANGAR_REDIS_PREFIX/);
    expect(() => loadConfig({ HANGAR_PRESENCE_TTL_SECONDS: '0' })).to.throw(/HANGAR_PRESENCE_TTL_SECONDS/);
  });
});
