import { expect } from 'chai';
import { WorkspaceMachine, type WorkspaceMachineInput } from '../../../workflows/workspaceState';
import type { HostPlacement, LifecyclePolicy, WorkspaceCarriedState } from '../../../workflows/shared';

const timings = { idleMs: 20_000, archiveAfterMs: 3_600_000 };
const machine = (policy: LifecyclePolicy = 'default', carried?: WorkspaceCarriedState, more: Partial<WorkspaceMachineInput> = {}) =>
  new WorkspaceMachine({ lifecyclePolicy: policy, ...timings, carried, ...more });
const host: HostPlacement = { hostId: 'host-a', taskQueue: 'hangar@host-a', scheduleToStartMs: 20_000, sharedVolumes: true };
const active = (policy: LifecyclePolicy = 'default') => machine(policy, { status: 'active', pendingChats: [], lifecycle: [] });

describe('workflows/workspaceState', () => {
  it('starts a chat with work, waits on it, and goes idle with the inactivity timeout once it stops', () => {
    const m = active();
    m.workRequested('chat-a');
    expect(m.next()).to.deep.equal({ kind: 'run-turns', start: ['chat-a'] });
    m.turnsStarted('chat-a');
    expect(m.turnsNeedAttention).to.equal(false);
    expect(m.snapshot()).to.deep.equal({ status: 'active', pendingChats: [], runningChats: ['chat-a'] });
    m.turnEnded();
    m.turnsStopped('chat-a');
    expect(m.turnsNeedAttention).to.equal(true);
    expect(m.next()).to.deep.equal({ kind: 'idle', timeoutMs: 20_000, onTimeout: 'sleep' });
  });

  it('does not start a second loop for a running chat, and restarts it when new work arrived meanwhile', () => {
    const m = active();
    m.workRequested('chat-a');
    m.next();
    m.turnsStarted('chat-a');
    m.workRequested('chat-a'); // a message queued while the loop runs: the loop will find it
    expect(m.turnsNeedAttention).to.equal(false);
    expect(m.next()).to.deep.equal({ kind: 'run-turns', start: [] });
    m.workRequested('chat-b');
    expect(m.turnsNeedAttention).to.equal(true);
    expect(m.next()).to.deep.equal({ kind: 'run-turns', start: ['chat-b'] });
    m.turnsStarted('chat-b');
    m.turnsStopped('chat-a');
    expect(m.next()).to.deep.equal({ kind: 'run-turns', start: ['chat-a'] });
  });

  it('applies sleep_when_done and archive_when_done after work, not before any', () => {
    for (const [policy, request] of [['sleep_when_done', 'sleep'], ['archive_when_done', 'archive']] as const) {
      const idle = active(policy);
      expect(idle.next().kind, `${policy} with no work`).to.equal('idle');

      const m = active(policy);
      m.workRequested('chat-a');
      m.next();
      m.turnsStarted('chat-a');
      m.turnEnded();
      m.turnsStopped('chat-a');
      expect(m.next()).to.deep.equal({ kind: 'again' });
      expect(m.next()).to.deep.equal({ kind: request });
    }
  });

  it('deletes after inactivity under delete_after_inactivity', () => {
    expect(active('delete_after_inactivity').next()).to.deep.equal({ kind: 'idle', timeoutMs: 20_000, onTimeout: 'delete' });
  });

  it('sleeps only when active, archives unless archived, and always deletes', () => {
    const m = active();
    m.lifecycleRequested('sleep');
    expect(m.next()).to.deep.equal({ kind: 'sleep' });
    m.status = 'sleeping';
    m.lifecycleRequested('sleep');
    expect(m.next()).to.deep.equal({ kind: 'again' });
    expect(m.next()).to.deep.equal({ kind: 'dormant', timeoutMs: 3_600_000 });
    m.lifecycleRequested('archive');
    expect(m.next()).to.deep.equal({ kind: 'archive' });
    m.status = 'archived';
    m.lifecycleRequested('archive');
    expect(m.next()).to.deep.equal({ kind: 'again' });
    expect(m.next()).to.deep.equal({ kind: 'dormant', timeoutMs: null });
    m.lifecycleRequested('delete');
    expect(m.next()).to.deep.equal({ kind: 'delete' });
  });

  it('wakes on a request or on work: started when sleeping, rebuilt when archived', () => {
    const sleeping = machine('default', { status: 'sleeping', pendingChats: [], lifecycle: ['wake'] });
    expect(sleeping.next()).to.deep.equal({ kind: 'wake', fresh: false });
    const archived = machine('default', { status: 'archived', pendingChats: [], lifecycle: [] });
    expect(archived.wanted).to.equal(false);
    archived.workRequested('chat-a');
    expect(archived.wanted).to.equal(true);
    expect(archived.next()).to.deep.equal({ kind: 'wake', fresh: true });
    const awake = active();
    awake.lifecycleRequested('wake');
    expect(awake.next()).to.deep.equal({ kind: 'again' });
  });

  it('restarts the container only of an active workspace, running turns or not', () => {
    const m = active();
    m.workRequested('chat-a');
    m.next();
    m.turnsStarted('chat-a');
    m.lifecycleRequested('restart');
    expect(m.turnsNeedAttention).to.equal(true);
    expect(m.next()).to.deep.equal({ kind: 'restart' });
    for (const status of ['sleeping', 'archived', 'error', 'preparing'] as const) {
      const other = machine('default', { status, pendingChats: [], lifecycle: ['restart'] });
      expect(other.next().kind, status).to.be.oneOf(['again', 'end']);
      expect(other.status).to.equal(status);
    }
  });

  it('ends in error, whatever is asked but a delete', () => {
    const m = machine('default', { status: 'error', pendingChats: ['chat-a'], lifecycle: ['wake'] });
    expect(m.next()).to.deep.equal({ kind: 'end' });
    expect(m.next()).to.deep.equal({ kind: 'end' });
    m.lifecycleRequested('delete');
    expect(m.next()).to.deep.equal({ kind: 'delete' });
  });

  it('carries status, pending chats and requests across continue-as-new', () => {
    const m = active();
    m.workRequested('chat-a');
    m.lifecycleRequested('sleep');
    const carried = m.carry();
    expect(carried).to.deep.equal({ status: 'active', pendingChats: ['chat-a'], lifecycle: ['sleep'], reported: true, reportTargets: [] });
    const next = machine('default', carried);
    expect(next.snapshot()).to.deep.equal({ status: 'active', pendingChats: ['chat-a'], runningChats: [] });
    expect(next.next()).to.deep.equal({ kind: 'sleep' });
  });

  it('carries the host and who is still to be told across continue-as-new', () => {
    const reportTo = { workflowId: 'run/1', messageId: 'msg-1' };
    const m = machine('default', { status: 'active', pendingChats: [], lifecycle: [], host }, { reportTo });
    m.reports.groupedRunWaits({ workflowId: 'run/2', messageId: 'msg-2' });
    const carried = m.carry();
    expect(carried).to.deep.equal({ status: 'active', pendingChats: [], lifecycle: [], reported: false, reportTargets: [{ messageId: 'msg-2', workflowId: 'run/2' }], host });
    const next = machine('default', carried, { reportTo });
    expect(next.placement.host).to.deep.equal(host);
    expect(next.reports.claimRun()).to.equal('run/1');
    expect(next.reports.groupedRuns(null)).to.deep.equal([['msg-2', 'run/2']]);
  });

  it('starts preparing when nothing is carried, with the work of a run workspace\'s first chat', () => {
    expect(machine().status).to.equal('preparing');
    expect(machine().snapshot().pendingChats).to.deep.equal([]);
    expect(machine('default', undefined, { firstChatId: 'chat-a' }).snapshot().pendingChats).to.deep.equal(['chat-a']);
    // Continued as new, the first chat is not asked again: what is pending was carried.
    expect(machine('default', { status: 'active', pendingChats: [], lifecycle: [] }, { firstChatId: 'chat-a' }).snapshot().pendingChats).to.deep.equal([]);
  });

  it('announces ready once: a new workspace when it is up, never one that was up before', () => {
    const fresh = machine();
    expect(fresh.reports.announceReady()).to.equal(true);
    expect(fresh.reports.announceReady()).to.equal(false);
    expect(active().reports.announceReady()).to.equal(false);
  });

  it('deals with a lost host first, until the workspace is in error, and stops waiting on turns for it', () => {
    const m = machine('default', { status: 'active', pendingChats: [], lifecycle: [], host });
    m.workRequested('chat-a');
    m.next();
    m.turnsStarted('chat-a');
    m.lifecycleRequested('delete');
    expect(m.turnsNeedAttention).to.equal(true);
    expect(m.restartMayStart).to.equal(false);
    expect(m.placement.hostLost()).to.equal(true);
    expect(m.hostLost).to.equal(true);
    expect(m.restartMayStart).to.equal(true);
    expect(m.next()).to.deep.equal({ kind: 'host-lost' });
    expect(m.next(), 'the request waits').to.deep.equal({ kind: 'host-lost' });
    m.status = 'error';
    expect(m.hostLost).to.equal(false);
    expect(m.next()).to.deep.equal({ kind: 'delete' });
  });

  it('goes on waiting on turns that have not ended while its host is still there', () => {
    const m = machine('default', { status: 'active', pendingChats: [], lifecycle: [], host });
    m.workRequested('chat-a');
    m.next();
    m.turnsStarted('chat-a');
    expect(m.turnsNeedAttention).to.equal(false);
    m.placement.hostLost();
    expect(m.turnsNeedAttention).to.equal(true);
  });

  it('keeps the chats that found the container stopped until a restart takes them', () => {
    const m = active();
    expect(m.restartMayStart).to.equal(true);
    m.waitingChats.add('chat-a');
    m.waitingChats.add('chat-b');
    m.waitingChats.add('chat-a');
    expect(m.waitingChats.take()).to.deep.equal(['chat-a', 'chat-b']);
    expect(m.waitingChats.take()).to.deep.equal([]);
  });
});
