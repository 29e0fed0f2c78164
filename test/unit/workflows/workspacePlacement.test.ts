import { expect } from 'chai';
import { hostLostMessage, WorkspacePlacement } from '../../../workflows/workspacePlacement';
import type { HostPlacement } from '../../../workflows/shared';

const hostA: HostPlacement = { hostId: 'host-a', taskQueue: 'hangar@host-a', scheduleToStartMs: 20_000, sharedVolumes: true };
const hostB: HostPlacement = { hostId: 'host-b', taskQueue: 'hangar@host-b', scheduleToStartMs: null };

describe('workflows/workspacePlacement', () => {
  it('loses only a host it has, and keeps the first reason', () => {
    const none = new WorkspacePlacement();
    expect(none.hostLost()).to.equal(false);
    expect(none.lost).to.equal(null);

    const p = new WorkspacePlacement(hostA);
    expect(p.hostLost()).to.equal(true);
    expect(p.lost).to.equal(hostLostMessage('host-a', 20_000));
    p.host = hostB; // a later loss (of another host) does not replace the reason the workspace shows
    expect(p.hostLost()).to.equal(true);
    expect(p.lost).to.equal(hostLostMessage('host-a', 20_000));
  });

  it('says how long the host had to pick the work up, when it had a limit', () => {
    expect(hostLostMessage('host-a', 20_000)).to.equal(
      'the worker host "host-a" holding this workspace\'s container did not pick up its work within 20 s; the host is taken as lost',
    );
    expect(hostLostMessage('host-b', null)).to.equal('the worker host "host-b" holding this workspace\'s container did not pick up its work; the host is taken as lost');
  });

  it('moves only on shared storage, and a new host is not lost', () => {
    expect(new WorkspacePlacement().shared).to.equal(false);
    expect(new WorkspacePlacement(hostB).shared).to.equal(false);
    const p = new WorkspacePlacement(hostA);
    expect(p.shared).to.equal(true);
    p.hostLost();
    p.placeOn(hostB);
    expect(p.host).to.equal(hostB);
    expect(p.lost).to.equal(null);
    expect(p.shared).to.equal(false);
  });

  it('gives the chats lost with the host back once, in the order they were lost', () => {
    const p = new WorkspacePlacement(hostA);
    p.lostChats.add('chat-b');
    p.lostChats.add('chat-a');
    p.lostChats.add('chat-b');
    expect(p.lostChats.take()).to.deep.equal(['chat-b', 'chat-a']);
    expect(p.lostChats.take()).to.deep.equal([]);
  });

  it('carries its host, or nothing when it has none', () => {
    expect(new WorkspacePlacement(hostA).carry()).to.deep.equal({ host: hostA });
    expect(new WorkspacePlacement().carry()).to.deep.equal({});
    const placed = new WorkspacePlacement();
    placed.placeOn(undefined); // placement named no host: the shared queue serves it
    expect(placed.carry()).to.deep.equal({});
  });
});
