/**
 * The workspace workflow (`workflows/workspace.ts`) run for real on a local Temporal dev
 * server, with fake activities (test/workflows/support/workspaceHarness.ts): what it asks the
 * activities to do, on which host's queue, what it tells the runs waiting on it, and what its
 * state query answers. No Docker, no database.
 */
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { expect } from 'chai';
import { workflowBundle } from '../../src/temporal/taskQueueWorkers';
import { ApplicationFailure } from '@temporalio/common';
import { WARM_POOL_SIGNALS, WORKSPACE_SIGNALS, warmPoolWorkflowId, type WorkspaceState } from '../../workflows/shared';
import { gate, sdkLogs, startServer, until, WorkspaceTest } from './support/workspaceHarness';

describe('workspace workflow on a Temporal dev server, with fake activities', function () {
  this.timeout(120_000);
  let env: TestWorkflowEnvironment;
  let t: WorkspaceTest;
  let logsFrom = 0;

  before(async function () {
    this.timeout(180_000);
    env = await startServer();
    await workflowBundle();
  });

  after(async function () {
    this.timeout(60_000);
    await env?.teardown();
  });

  beforeEach(() => {
    t = new WorkspaceTest(env);
    logsFrom = sdkLogs.length;
  });

  /**
   * The paths whose histories replay guards (test/unit/workflows/replay.test.ts), recorded with
   * `HANGAR_RECORD_HISTORIES=1 npm run test:workflows` after a deliberate workflow change.
   */
  const RECORDED_PATHS: Record<string, string> = {
    "records a turn whose activity throws as failed, tells its run, and goes on with the chat's next message": 'failed-turn',
    'tells the runs of the turns cut with the lost host that they were interrupted, and takes their chats up on the new host': 'lost-host-relocation',
    'continues as new past its history limit, carrying status, host, grouped runs and whether its run was told': 'continue-as-new',
    'carries on after its worker restarts in the middle of a turn': 'worker-restart',
    'takes a turn over on the next attempt when its worker hands it over mid-turn, and its run hears it completed': 'turn-taken-over',
  };

  afterEach(async function () {
    this.timeout(60_000);
    const path = RECORDED_PATHS[this.currentTest?.title ?? ''];
    if (process.env.HANGAR_RECORD_HISTORIES && path && this.currentTest?.state === 'passed') await t.recordHistories(path);
    if (this.currentTest?.state === 'failed') {
      console.error('activity calls:', JSON.stringify(t.world.calls, null, 1));
      console.error('sdk logs:', sdkLogs.slice(logsFrom).map((e) => `${e.level} ${e.message} ${JSON.stringify(e.meta ?? {})}`).join('\n'));
    }
    await t.close();
  });

  const hostQueue = (hostId: string) => `${t.taskQueue}@${hostId}`;
  /** Waits until the activity `name` has been called `count` times, and answers those calls. */
  const called = (name: string, count: number) =>
    until(`${count} call(s) to ${name}`, async () => t.world.callsTo(name).length >= count && t.world.callsTo(name), { seen: () => t.world.calls.map((c) => c.name) });
  const turnsRan = (...messageIds: string[]) =>
    until(`the turns of ${messageIds.join(', ')} to run`, async () => messageIds.every((id) => t.world.turnsRun.some((r) => r.messageId === id)), { seen: () => t.world.turnsRun });
  /**
   * Waits until the statuses written are `expected`. The state query answers a new status as
   * soon as the workflow has set it, a moment before its `setReplicaStatus` has run.
   */
  const statusesBecome = (...expected: string[]) =>
    until(`the statuses written to be ${expected.join(', ')}`, async () => JSON.stringify(t.world.statuses().map((s) => s.status)) === JSON.stringify(expected), {
      seen: () => t.world.statuses(),
    });
  const idle: WorkspaceState = { status: 'active', pendingChats: [], runningChats: [] };

  describe('turns', () => {
    it('places a new workspace on a host, provisions it there and runs its first chat turn on that host', async () => {
      t.world.placement = t.world.host('a');
      t.world.queue('c1', { id: 'm1' });
      await t.startSharedWorker();
      await t.startHostWorker('a');
      const run = await t.startListener('automation');
      const ws = await t.startWorkspace(t.input({ firstChatId: 'c1', reportTo: { workflowId: run.workflowId, messageId: 'm1' } }));

      expect(await run.hears(1)).to.deep.equal([{ ok: true, error: null }]);
      await ws.stateBecomes(idle);
      await called('relayTurn', 1);
      await called('deliverReplicaWebhook', 2);
      expect(t.world.callsTo('placeWorkspace').map((c) => [c.args, c.taskQueue])).to.deep.equal([[{ replicaId: t.replicaId }, t.taskQueue]]);
      expect(t.world.callsTo('provisionWorkspace').map((c) => [c.args, c.taskQueue])).to.deep.equal([[{ replicaId: t.replicaId }, hostQueue('a')]]);
      expect(t.world.turnsRun).to.deep.equal([{ chatId: 'c1', messageId: 'm1', taskQueue: hostQueue('a') }]);
      // Every turn activity went to the host's queue, the last one finding nothing more queued.
      expect(t.world.callsTo('runAgentTurn').map((c) => c.taskQueue)).to.deep.equal([hostQueue('a'), hostQueue('a')]);
      expect(t.world.statuses()).to.deep.equal([{ status: 'active' }]);
      expect(t.world.callsTo('relayTurn').map((c) => c.args)).to.deep.equal([{ replicaId: t.replicaId, chatId: 'c1', messageId: 'm1' }]);
      expect(t.world.webhookEvents()).to.deep.equal([
        { event: 'replica.ready', payload: { status: 'active' } },
        { event: 'replica.turn_completed', payload: { chatId: 'c1', messageId: 'm1', isComplete: true } },
      ]);
    });

    it('records a turn whose activity throws as failed, tells its run, and goes on with the chat\'s next message', async () => {
      t.world.placement = t.world.host('a');
      await t.startSharedWorker();
      await t.startHostWorker('a');
      const ws = await t.startWorkspace(t.input());
      await ws.stateBecomes(idle);
      const crashed = await t.startListener('crashed');
      const gaveUp = await t.startListener('gave-up');
      const fine = await t.startListener('fine');
      await ws.reportTurn({ workflowId: crashed.workflowId, messageId: 'm1' });
      await ws.reportTurn({ workflowId: gaveUp.workflowId, messageId: 'm2' });
      await ws.reportTurn({ workflowId: fine.workflowId, messageId: 'm3' });
      t.world.queue('c1', { id: 'm1', outcome: 'throws' }, { id: 'm2', outcome: 'agent-failed' }, { id: 'm3' });
      await ws.workRequested('c1');

      const error = "the agent's turn did not finish: the agent process crashed on m1";
      expect(await crashed.hears(1)).to.deep.equal([{ ok: false, error, interrupted: true }]);
      expect(await gaveUp.hears(1)).to.deep.equal([{ ok: false, error: 'the agent gave up on m2' }]);
      expect(await fine.hears(1)).to.deep.equal([{ ok: true, error: null }]);
      await ws.stateBecomes(idle);
      // The turn that failed for good was marked failed once.
      expect(t.world.callsTo('runAgentTurn').filter((c) => c.attempt === 2)).to.have.length(0);
      expect(t.world.callsTo('failRunningTurn').map((c) => c.args)).to.deep.equal([{ replicaId: t.replicaId, chatId: 'c1', error }]);
      expect(t.world.turnsRun.map((r) => r.messageId)).to.deep.equal(['m2', 'm3']);
      expect(t.world.statuses()).to.deep.equal([{ status: 'active' }], 'a failed turn does not change the workspace status');
      await called('relayTurn', 3);
      expect(t.world.callsTo('relayTurn').map((c) => c.args.messageId)).to.deep.equal(['m1', 'm2', 'm3']);
      await called('deliverReplicaWebhook', 4);
      expect(t.world.webhookEvents().filter((e) => e.event === 'replica.turn_completed').map((e) => e.payload)).to.deep.equal([
        { chatId: 'c1', messageId: 'm1', isComplete: false },
        { chatId: 'c1', messageId: 'm2', isComplete: false },
        { chatId: 'c1', messageId: 'm3', isComplete: true },
      ]);
    });

    it('runs two chats\' turns at the same time, one turn at a time per chat', async () => {
      t.world.placement = t.world.host('a');
      const held = gate();
      t.world.queue('c1', { id: 'c1-m1', gate: held }, { id: 'c1-m2' });
      t.world.queue('c2', { id: 'c2-m1' }, { id: 'c2-m2' });
      await t.startSharedWorker();
      await t.startHostWorker('a');
      const ws = await t.startWorkspace(t.input({ firstChatId: 'c1' }));
      await called('runAgentTurn', 1);
      await ws.workRequested('c2');
      await turnsRan('c2-m1', 'c2-m2');
      // c2 went on while c1's turn was held; c1's second message waits for its first.
      expect(t.world.turnsRun.map((r) => r.messageId)).to.deep.equal(['c2-m1', 'c2-m2']);
      expect((await ws.stateBecomes({ runningChats: ['c1'] })).status).to.equal('active');
      held.release();
      await turnsRan('c1-m1', 'c1-m2');
      expect(t.world.turnsRun.map((r) => r.messageId)).to.deep.equal(['c2-m1', 'c2-m2', 'c1-m1', 'c1-m2']);
      await ws.stateBecomes(idle);
    });

    it('keeps the workspace going when a failed turn cannot even be recorded: the chat stops, and runs again when asked', async () => {
      t.world.placement = t.world.host('a');
      t.world.failRunningTurnError = ApplicationFailure.create({ message: 'the database is away', nonRetryable: true });
      t.world.queue('c1', { id: 'm1', outcome: 'throws' }, { id: 'm2' });
      await t.startSharedWorker();
      await t.startHostWorker('a');
      const ws = await t.startWorkspace(t.input({ firstChatId: 'c1' }));
      await called('failRunningTurn', 1);
      await ws.stateBecomes(idle);
      expect(t.world.turnsRun).to.deep.equal([]);
      expect(t.world.statuses()).to.deep.equal([{ status: 'active' }]);

      // The database is back: the chat's next request ends m1 as failed and runs m2.
      t.world.failRunningTurnError = null;
      await ws.workRequested('c1');
      await turnsRan('m2');
      expect(t.world.callsTo('failRunningTurn')).to.have.length(2);
      await ws.stateBecomes(idle);
    });

    it('frees the chat when its turn activity fails before claiming a message, and the chat\'s message then runs', async () => {
      t.world.placement = t.world.host('a');
      t.world.queue('c1', { id: 'no message', failsBeforeClaim: 1 }, { id: 'm1' });
      await t.startSharedWorker();
      await t.startHostWorker('a');
      const ws = await t.startWorkspace(t.input({ firstChatId: 'c1' }));
      await turnsRan('m1');
      await ws.stateBecomes(idle);
      expect(t.world.callsTo('failRunningTurn').map((c) => c.args)).to.deep.equal([
        { replicaId: t.replicaId, chatId: 'c1', error: "the agent's turn did not finish: the turn could not start" },
      ]);
      await called('deliverReplicaWebhook', 3);
      expect(t.world.webhookEvents().filter((e) => e.event === 'replica.turn_completed').map((e) => e.payload)).to.deep.equal([
        { chatId: 'c1', isComplete: false }, // no message to name
        { chatId: 'c1', messageId: 'm1', isComplete: true },
      ]);
      await called('relayTurn', 1);
      expect(t.world.callsTo('relayTurn').map((c) => c.args.messageId)).to.deep.equal(['m1'], 'nothing to relay for the failed start');
    });

    it('carries on when the runs it tells are gone and its webhook, thread relay and warm-pool signal fail', async () => {
      t.world.placement = t.world.host('a');
      t.world.provisionResult = { ok: true, warmPoolEnvironmentId: `no-pool-${t.taskQueue}` };
      t.world.deliveryError = ApplicationFailure.create({ message: 'the receiver answered 500', nonRetryable: true });
      t.world.queue('c1', { id: 'm1' });
      await t.startSharedWorker();
      await t.startHostWorker('a');
      const gone = `run/${t.taskQueue}/gone`;
      const ws = await t.startWorkspace(t.input({ firstChatId: 'c1', reportTo: { workflowId: gone, messageId: 'm1' } }), {
        reportTurn: { workflowId: `${gone}-grouped`, messageId: 'm1' },
      });
      await turnsRan('m1');
      await ws.stateBecomes(idle);
      await called('relayTurn', 1);
      await called('deliverReplicaWebhook', 2);

      t.world.queue('c1', { id: 'm2' });
      await ws.workRequested('c1');
      await turnsRan('m2');
      await ws.stateBecomes(idle);
      expect(t.world.statuses()).to.deep.equal([{ status: 'active' }]);
      expect((await ws.describe()).status.name).to.equal('RUNNING');
    });
  });

  describe('a lost host', () => {
    // Long enough that a live host's worker always picks its work up first on a busy machine;
    // a stopped one's work times out schedule-to-start, which is how the workflow finds it lost.
    const scheduleToStartMs = 4000;

    it('moves a workspace on shared storage to another host, where its chat goes on', async () => {
      t.world.placement = t.world.host('a', { scheduleToStartMs, sharedVolumes: true });
      t.world.replacements = [t.world.host('b', { scheduleToStartMs, sharedVolumes: true })];
      t.world.queue('c1', { id: 'm1' });
      await t.startSharedWorker();
      await t.startHostWorker('a');
      await t.startHostWorker('b');
      const ws = await t.startWorkspace(t.input({ firstChatId: 'c1' }));
      await turnsRan('m1');
      await ws.stateBecomes(idle);

      await t.stopHostWorker('a');
      t.world.queue('c1', { id: 'm2' });
      await ws.workRequested('c1');

      await turnsRan('m2');
      expect(t.world.turnsRun).to.deep.equal([
        { chatId: 'c1', messageId: 'm1', taskQueue: hostQueue('a') },
        { chatId: 'c1', messageId: 'm2', taskQueue: hostQueue('b') },
      ]);
      expect(t.world.callsTo('replaceWorkspace').map((c) => c.args)).to.deep.equal([{ replicaId: t.replicaId, lostHostId: 'a' }]);
      expect(t.world.callsTo('reprovisionWorkspace').map((c) => c.taskQueue)).to.deep.equal([hostQueue('b')]);
      expect(t.world.callsTo('provisionWorkspace').map((c) => c.taskQueue)).to.deep.equal([hostQueue('a')], 'provisioned from scratch once, on the first host');
      const [interrupt] = t.world.callsTo('interruptRunningTurns');
      expect(interrupt.args.error).to.equal(
        'the worker host "a" holding this workspace\'s container did not pick up its work within 4 s; the host is taken as lost; the turn was cut, and the workspace moved to host "b"',
      );
      expect(t.world.statuses()).to.deep.equal([{ status: 'active' }, { status: 'preparing' }, { status: 'active' }]);
      await ws.stateBecomes(idle);
      // Ready was announced once, on the first host.
      expect(t.world.webhookEvents().filter((e) => e.event === 'replica.ready')).to.have.length(1);
    });

    it('tells the runs of the turns cut with the lost host that they were interrupted, and takes their chats up on the new host', async () => {
      t.world.placement = t.world.host('a', { scheduleToStartMs, sharedVolumes: true });
      t.world.replacements = [t.world.host('b', { scheduleToStartMs, sharedVolumes: true })];
      await t.startSharedWorker();
      await t.startHostWorker('a');
      await t.startHostWorker('b');
      const run = await t.startListener('automation');
      const grouped = await t.startListener('grouped');
      const ws = await t.startWorkspace(t.input({ reportTo: { workflowId: run.workflowId, messageId: 'm1' } }));
      await ws.stateBecomes(idle);
      await ws.reportTurn({ workflowId: grouped.workflowId, messageId: 'm3' });
      // m1's and m3's turns are running on host a when a dies; the record still says they run
      // when the workspace moves, and interruptRunningTurns ends them. The loss is found by c2's turn.
      t.world.queue('c1', { id: 'm1', gate: gate() });
      t.world.queue('c3', { id: 'm3', gate: gate() });
      await ws.workRequested('c1');
      await ws.workRequested('c3');
      await called('runAgentTurn', 2);
      t.world.queue('c2', { id: 'c2-m1' });
      await t.loseHost('a');
      await ws.workRequested('c2');

      const error =
        'the worker host "a" holding this workspace\'s container did not pick up its work within 4 s; the host is taken as lost; the turn was cut, and the workspace moved to host "b"';
      expect(await run.hears(1)).to.deep.equal([{ ok: false, error, interrupted: true }]);
      expect(await grouped.hears(1)).to.deep.equal([{ ok: false, error, interrupted: true }]);
      await turnsRan('c2-m1');
      expect(t.world.turnsRun.find((r) => r.messageId === 'c2-m1')?.taskQueue).to.equal(hostQueue('b'));
      expect(t.world.statuses().map((s) => s.status)).to.deep.equal(['active', 'preparing', 'active']);
      // Every chat was asked again on host b: c1 and c3 (whose messages were cut) find nothing queued.
      await until('c1 and c3 to be asked again on host b', async () =>
        ['c1', 'c3'].every((chatId) => t.world.callsTo('runAgentTurn').some((c) => c.taskQueue === hostQueue('b') && c.args.chatId === chatId)),
      );
      expect(t.world.callsTo('interruptRunningTurns').map((c) => c.args)).to.deep.equal([{ replicaId: t.replicaId, error }]);
      await until('the cut turns\' webhooks', async () => t.world.webhookEvents().filter((e) => ['m1', 'm3'].includes(e.payload?.messageId)).length === 2);
      expect(t.world.webhookEvents().filter((e) => ['m1', 'm3'].includes(e.payload?.messageId))).to.have.deep.members([
        { event: 'replica.turn_completed', payload: { chatId: 'c1', messageId: 'm1', isComplete: false } },
        { event: 'replica.turn_completed', payload: { chatId: 'c3', messageId: 'm3', isComplete: false } },
      ]);
      await ws.stateBecomes(idle);
    });

    /** A workspace on host `a` that ran m1, whose host is then stopped and which is given m2. */
    const loseHostUnderWork = async (options: { sharedVolumes: boolean; hosts: string[] }) => {
      t.world.placement = t.world.host('a', { scheduleToStartMs, sharedVolumes: options.sharedVolumes });
      t.world.queue('c1', { id: 'm1' });
      await t.startSharedWorker();
      for (const hostId of options.hosts) await t.startHostWorker(hostId);
      const ws = await t.startWorkspace(t.input({ firstChatId: 'c1' }));
      await turnsRan('m1');
      await ws.stateBecomes(idle);
      await t.stopHostWorker('a');
      t.world.queue('c1', { id: 'm2' });
      await ws.workRequested('c1');
      return ws;
    };
    const lostMessage = (hostId: string) =>
      `the worker host "${hostId}" holding this workspace's container did not pick up its work within 4 s; the host is taken as lost`;

    it('moves the workspace again when the host it moved to is lost too', async () => {
      t.world.replacements = [t.world.host('b', { scheduleToStartMs, sharedVolumes: true }), t.world.host('c', { scheduleToStartMs, sharedVolumes: true })];
      const ws = await loseHostUnderWork({ sharedVolumes: true, hosts: ['a', 'c'] }); // b never polls

      await turnsRan('m2');
      expect(t.world.turnsRun.map((r) => [r.messageId, r.taskQueue])).to.deep.equal([
        ['m1', hostQueue('a')],
        ['m2', hostQueue('c')],
      ]);
      expect(t.world.callsTo('replaceWorkspace').map((c) => c.args.lostHostId)).to.deep.equal(['a', 'b']);
      expect(t.world.callsTo('reprovisionWorkspace').map((c) => c.taskQueue)).to.deep.equal([hostQueue('c')]);
      expect(t.world.statuses().map((s) => s.status)).to.deep.equal(['active', 'preparing', 'preparing', 'active']);
      await ws.stateBecomes(idle);
    });

    for (const [how, answer] of [
      ['placement finds no other live host', null],
      ['placement fails', ApplicationFailure.create({ message: 'the database is away', nonRetryable: true })],
    ] as const) {
      it(`puts a workspace on shared storage in error when ${how}`, async () => {
        t.world.replacements = [answer];
        const ws = await loseHostUnderWork({ sharedVolumes: true, hosts: ['a'] });
        await ws.handle.result();
        expect(t.world.callsTo('replaceWorkspace').map((c) => c.args)).to.deep.equal([{ replicaId: t.replicaId, lostHostId: 'a' }]);
        expect(t.world.statuses()).to.deep.equal([{ status: 'active' }, { status: 'preparing' }, { status: 'error', error: lostMessage('a') }]);
        expect(t.world.callsTo('reprovisionWorkspace')).to.deep.equal([]);
        expect(t.world.turnsRun.map((r) => r.messageId)).to.deep.equal(['m1']);
      });
    }

    it('puts the workspace in error when re-provisioning it on the new host fails', async () => {
      t.world.replacements = [t.world.host('b', { scheduleToStartMs, sharedVolumes: true })];
      t.world.reprovisionResult = { ok: false, error: 'the volume could not be mounted' };
      const ws = await loseHostUnderWork({ sharedVolumes: true, hosts: ['a', 'b'] });
      await ws.handle.result();
      expect(t.world.statuses()).to.deep.equal([{ status: 'active' }, { status: 'preparing' }, { status: 'error', error: 'the volume could not be mounted' }]);
      expect(t.world.callsTo('reprovisionWorkspace').map((c) => c.taskQueue)).to.deep.equal([hostQueue('b')]);
      expect(t.world.callsTo('removeWorkspace')).to.deep.equal([], 'what was made on the new host stays: its volume is the data');
    });

    for (const [request, activity] of [
      ['sleep', 'stopWorkspace'],
      ['archive', 'removeWorkspace'],
      ['restart', 'startWorkspace'],
    ] as const) {
      it(`goes to error when its host is lost as it is asked to ${request} (off shared storage)`, async () => {
        t.world.placement = t.world.host('a', { scheduleToStartMs });
        await t.startSharedWorker();
        await t.startHostWorker('a');
        const ws = await t.startWorkspace(t.input());
        await ws.stateBecomes(idle);
        await t.stopHostWorker('a');
        await ws.lifecycle(request);
        await ws.handle.result();
        expect(t.world.statuses()).to.deep.equal([{ status: 'active' }, { status: 'error', error: lostMessage('a') }]);
        expect(t.world.callsTo(activity)).to.deep.equal([], `${activity} was never picked up`);
      });
    }

    it('provisions a new workspace on shared storage on another host when its first host never picks the work up, and announces it ready once', async () => {
      t.world.placement = t.world.host('a', { scheduleToStartMs, sharedVolumes: true });
      t.world.replacements = [t.world.host('b', { scheduleToStartMs, sharedVolumes: true })];
      t.world.queue('c1', { id: 'm1' });
      await t.startSharedWorker();
      await t.startHostWorker('b'); // host a never polls
      const ws = await t.startWorkspace(t.input({ firstChatId: 'c1' }));

      await turnsRan('m1');
      expect(t.world.turnsRun[0].taskQueue).to.equal(hostQueue('b'));
      expect(t.world.callsTo('provisionWorkspace')).to.deep.equal([]);
      expect(t.world.callsTo('reprovisionWorkspace').map((c) => c.taskQueue)).to.deep.equal([hostQueue('b')]);
      expect(t.world.statuses().map((s) => s.status)).to.deep.equal(['preparing', 'active']);
      await ws.stateBecomes(idle);
      await called('deliverReplicaWebhook', 2);
      expect(t.world.webhookEvents().map((e) => e.event)).to.deep.equal(['replica.ready', 'replica.turn_completed']);
    });

    it('puts a new workspace off shared storage in error when its host never picks up the provisioning', async () => {
      t.world.placement = t.world.host('a', { scheduleToStartMs });
      await t.startSharedWorker();
      const ws = await t.startWorkspace(t.input({ firstChatId: 'c1' }));

      await ws.handle.result();
      const lost = 'the worker host "a" holding this workspace\'s container did not pick up its work within 4 s; the host is taken as lost';
      expect(t.world.statuses()).to.deep.equal([{ status: 'error', error: lost }]);
      expect(t.world.callsTo('replaceWorkspace')).to.deep.equal([]);
      expect(t.world.webhookEvents()).to.deep.equal([{ event: 'replica.error', payload: { status: 'error', message: lost } }]);
    });

    it('puts a workspace not on shared storage in error, tells its run, and ends the workflow', async () => {
      t.world.placement = t.world.host('a', { scheduleToStartMs });
      t.world.queue('c1', { id: 'm1' });
      await t.startSharedWorker();
      await t.startHostWorker('a');
      const run = await t.startListener('automation');
      const grouped = await t.startListener('grouped');
      const ws = await t.startWorkspace(t.input({ firstChatId: 'c1', reportTo: { workflowId: run.workflowId, messageId: 'm2' } }));
      await turnsRan('m1');
      await ws.stateBecomes(idle);
      await ws.reportTurn({ workflowId: grouped.workflowId, messageId: 'm2' });

      await t.stopHostWorker('a');
      t.world.queue('c1', { id: 'm2' });
      await ws.workRequested('c1');

      await ws.handle.result();
      const lost = 'the worker host "a" holding this workspace\'s container did not pick up its work within 4 s; the host is taken as lost';
      expect(t.world.statuses()).to.deep.equal([{ status: 'active' }, { status: 'error', error: lost }]);
      expect(t.world.callsTo('replaceWorkspace')).to.deep.equal([], 'a workspace off shared storage is not moved');
      expect(t.world.turnsRun.map((r) => r.messageId)).to.deep.equal(['m1']);
      expect(t.world.webhookEvents().at(-1)).to.deep.equal({ event: 'replica.error', payload: { status: 'error', message: lost } });
      // Pinned as the code behaves today: `setStatus('error')` tells the waiting runs "the
      // workspace failed to start" before the loop's own report (the lost host, interrupted) is
      // sent, and each run is told once, so the runs hear the former. See test/workflows/COVERAGE.md.
      expect(await run.outcomes()).to.deep.equal([{ ok: false, error: 'the workspace failed to start' }]);
      expect(await grouped.outcomes()).to.deep.equal([{ ok: false, error: 'the workspace failed to start' }]);
    });
  });

  describe('durability', () => {
    it('continues as new past its history limit, carrying status, host, grouped runs and whether its run was told', async () => {
      t.world.placement = t.world.host('a');
      t.world.queue('c1', { id: 'm1' });
      await t.startSharedWorker();
      await t.startHostWorker('a');
      const run = await t.startListener('automation');
      const grouped = await t.startListener('grouped');
      // The grouped run's request is in the first run's history from its first event.
      const ws = await t.startWorkspace(t.input({ firstChatId: 'c1', historyLimit: 20, reportTo: { workflowId: run.workflowId, messageId: 'm1' } }), {
        reportTurn: { workflowId: grouped.workflowId, messageId: 'm2' },
      });
      const firstRunId = ws.firstRunId;
      expect(await run.hears(1)).to.deep.equal([{ ok: true, error: null }]);

      const next = await until('the workflow to continue as new', async () => {
        const described = await ws.describe();
        return described.runId !== firstRunId && described.status.name === 'RUNNING' && described;
      });
      expect(next.historyLength).to.be.below(20);
      await ws.stateBecomes(idle);
      t.world.queue('c1', { id: 'm2' });
      await ws.workRequested('c1');

      // The new run knows the grouped run waiting for m2, and runs m2 on the carried host without
      // placing or provisioning again.
      expect(await grouped.hears(1)).to.deep.equal([{ ok: true, error: null }]);
      expect(t.world.turnsRun).to.deep.equal([
        { chatId: 'c1', messageId: 'm1', taskQueue: hostQueue('a') },
        { chatId: 'c1', messageId: 'm2', taskQueue: hostQueue('a') },
      ]);
      expect(t.world.callsTo('placeWorkspace')).to.have.length(1);
      expect(t.world.callsTo('provisionWorkspace')).to.have.length(1);
      expect(t.world.statuses()).to.deep.equal([{ status: 'active' }]);

      // Deleting tells a run not yet told; this one was told in the first run, and is not again.
      await ws.lifecycle('delete');
      await ws.handle.result();
      expect(await run.outcomes()).to.deep.equal([{ ok: true, error: null }]);
      expect(t.world.callsTo('removeWorkspace').map((c) => c.taskQueue)).to.deep.equal([hostQueue('a')]);
      expect(t.world.callsTo('deleteReplica').map((c) => c.args)).to.deep.equal([{ replicaId: t.replicaId }]);
    });

    it('takes a turn over on the next attempt when its worker hands it over mid-turn, and its run hears it completed', async () => {
      t.world.placement = t.world.host('a');
      const held = gate();
      t.world.queue('c1', { id: 'm1', gate: held, handedOver: 2 }, { id: 'm2' });
      await t.startSharedWorker();
      await t.startHostWorker('a');
      const run = await t.startListener('automation');
      const ws = await t.startWorkspace(t.input({ firstChatId: 'c1', reportTo: { workflowId: run.workflowId, messageId: 'm1' } }));
      await called('runAgentTurn', 1);
      held.release();

      expect(await run.hears(1)).to.deep.equal([{ ok: true, error: null }]);
      await turnsRan('m1', 'm2');
      await ws.stateBecomes(idle);
      // Two workers stopped under the turn; the third attempt, on the same host, followed it to its end.
      expect(t.world.callsTo('runAgentTurn').slice(0, 4).map((c) => [c.attempt, c.taskQueue])).to.deep.equal([
        [1, hostQueue('a')],
        [2, hostQueue('a')],
        [3, hostQueue('a')],
        [1, hostQueue('a')],
      ]);
      expect(t.world.callsTo('failRunningTurn')).to.have.length(0);
      expect(t.world.callsTo('runNextTurn')).to.have.length(0, 'a new workflow runs its turns under the supervisor');
      expect(t.world.turnsRun.map((r) => r.messageId)).to.deep.equal(['m1', 'm2']);
      await called('relayTurn', 2);
      expect(t.world.callsTo('relayTurn').map((c) => c.args.messageId)).to.deep.equal(['m1', 'm2'], 'each turn is told once');
    });

    it('carries on after its worker restarts in the middle of a turn', async () => {
      t.world.placement = t.world.host('a');
      const held = gate();
      t.world.queue('c1', { id: 'm1', gate: held }, { id: 'm2' });
      await t.startSharedWorker();
      await t.startHostWorker('a');
      const run = await t.startListener('automation');
      const ws = await t.startWorkspace(t.input({ firstChatId: 'c1', reportTo: { workflowId: run.workflowId, messageId: 'm1' } }));
      await called('runAgentTurn', 1);
      expect(await ws.state()).to.deep.equal({ status: 'active', pendingChats: [], runningChats: ['c1'] });

      // The workflow's worker stops while m1's turn runs; the turn ends with no workflow worker up.
      await t.stopSharedWorker();
      held.release();
      await turnsRan('m1');
      // Then the whole process restarts: a new worker has no cached workflow and replays the history.
      await t.stopHostWorker('a');
      await t.startSharedWorker();
      await t.startHostWorker('a');

      expect(await run.hears(1)).to.deep.equal([{ ok: true, error: null }]);
      await turnsRan('m2');
      await ws.stateBecomes(idle);
      expect(t.world.turnsRun.map((r) => r.messageId)).to.deep.equal(['m1', 'm2']);
      expect(t.world.callsTo('provisionWorkspace')).to.have.length(1, 'the replayed workflow does not provision again');
      expect(t.world.statuses()).to.deep.equal([{ status: 'active' }]);
      await called('relayTurn', 2);
      expect(t.world.callsTo('relayTurn').map((c) => c.args.messageId)).to.deep.equal(['m1', 'm2']);
    });
  });

  describe('lifecycle', () => {
    it('sleeps after inactivity, archives after a long sleep, and is provisioned afresh for new work', async () => {
      t.world.placement = t.world.host('a');
      t.world.queue('c1', { id: 'm1' });
      await t.startSharedWorker();
      await t.startHostWorker('a');
      const ws = await t.startWorkspace(t.input({ firstChatId: 'c1', idleMs: 1000, archiveAfterMs: 1000 }));

      await ws.stateBecomes({ status: 'archived', pendingChats: [], runningChats: [] });
      await statusesBecome('active', 'sleeping', 'archived');
      expect(t.world.calls.filter((c) => ['stopWorkspace', 'removeWorkspace'].includes(c.name)).map((c) => [c.name, c.taskQueue])).to.deep.equal([
        ['stopWorkspace', hostQueue('a')],
        ['removeWorkspace', hostQueue('a')],
      ]);

      t.world.queue('c1', { id: 'm2' });
      await ws.workRequested('c1');
      await turnsRan('m2');
      expect(t.world.callsTo('provisionWorkspace')).to.have.length(2, 'an archived workspace is provisioned from scratch');
      expect(t.world.callsTo('startWorkspace')).to.deep.equal([]);
      expect(t.world.statuses().slice(0, 4).map((s) => s.status)).to.deep.equal(['active', 'sleeping', 'archived', 'active']);
    });

    it('sleeps and wakes on request, starting the stopped container again', async () => {
      t.world.placement = t.world.host('a');
      await t.startSharedWorker();
      await t.startHostWorker('a');
      const ws = await t.startWorkspace(t.input());
      await ws.stateBecomes(idle);

      await ws.lifecycle('sleep');
      await ws.stateBecomes({ status: 'sleeping' });
      await ws.lifecycle('sleep'); // asleep already: nothing to do
      await ws.lifecycle('wake');
      await ws.stateBecomes(idle);
      await statusesBecome('active', 'sleeping', 'active');
      expect(t.world.calls.filter((c) => ['stopWorkspace', 'startWorkspace', 'provisionWorkspace'].includes(c.name)).map((c) => c.name)).to.deep.equal([
        'provisionWorkspace',
        'stopWorkspace',
        'startWorkspace',
      ]);

      // Work for a sleeping workspace wakes it.
      await ws.lifecycle('sleep');
      await ws.stateBecomes({ status: 'sleeping' });
      t.world.queue('c1', { id: 'm1' });
      await ws.workRequested('c1');
      await turnsRan('m1');
      expect(t.world.callsTo('startWorkspace')).to.have.length(2);
    });

    it('applies the lifecycle policy once its work is done (archive_when_done)', async () => {
      t.world.placement = t.world.host('a');
      t.world.queue('c1', { id: 'm1' });
      await t.startSharedWorker();
      await t.startHostWorker('a');
      const ws = await t.startWorkspace(t.input({ firstChatId: 'c1', lifecyclePolicy: 'archive_when_done' }));
      await ws.stateBecomes({ status: 'archived' });
      await statusesBecome('active', 'archived');
      expect(t.world.turnsRun.map((r) => r.messageId)).to.deep.equal(['m1']);
      expect(t.world.callsTo('removeWorkspace')).to.have.length(1);
    });

    it('deletes itself after inactivity (delete_after_inactivity), telling its waiting run', async () => {
      t.world.placement = t.world.host('a');
      await t.startSharedWorker();
      await t.startHostWorker('a');
      const run = await t.startListener('automation');
      const ws = await t.startWorkspace(t.input({ lifecyclePolicy: 'delete_after_inactivity', idleMs: 1000, reportTo: { workflowId: run.workflowId, messageId: 'never' } }));
      await ws.handle.result();
      expect(await run.outcomes()).to.deep.equal([{ ok: false, error: 'the workspace was deleted before the agent finished' }]);
      expect(t.world.calls.filter((c) => ['removeWorkspace', 'deleteReplica'].includes(c.name)).map((c) => c.name)).to.deep.equal(['removeWorkspace', 'deleteReplica']);
      expect(t.world.webhookEvents().map((e) => e.event)).to.deep.equal(['replica.ready', 'replica.deleted']);
    });

    it('deletes on request while a turn runs: the turn is stopped, the container removed, the record deleted', async () => {
      t.world.placement = t.world.host('a');
      const held = gate();
      t.world.queue('c1', { id: 'm1', gate: held });
      await t.startSharedWorker();
      await t.startHostWorker('a');
      const grouped = await t.startListener('grouped');
      const ws = await t.startWorkspace(t.input({ firstChatId: 'c1' }), { reportTurn: { workflowId: grouped.workflowId, messageId: 'm1' } });
      await called('runAgentTurn', 1);
      await ws.lifecycle('delete');
      await ws.handle.result();
      expect(await grouped.outcomes()).to.deep.equal([{ ok: false, error: 'the workspace was deleted before the agent finished' }]);
      expect(t.world.callsTo('deleteReplica')).to.have.length(1);
      expect(t.world.turnsRun).to.deep.equal([], 'the held turn never ended');
    });

    it('starts its container again when it stopped by itself, once the running turns have ended, and the chats that found it down go on', async () => {
      t.world.placement = t.world.host('a');
      await t.startSharedWorker();
      await t.startHostWorker('a');
      const ws = await t.startWorkspace(t.input());
      await ws.stateBecomes(idle);
      const held = gate();
      t.world.queue('c1', { id: 'm0', gate: held });
      t.world.queue('c2', { id: 'down', containerDown: true }, { id: 'm1' });
      await ws.workRequested('c1');
      await ws.workRequested('c2');
      await ws.stateBecomes({ runningChats: ['c1'], pendingChats: [] });
      expect(t.world.turnsRun).to.deep.equal([], 'a chat that found the container down waits');

      await ws.lifecycle('restart');
      await ws.signalHandled(WORKSPACE_SIGNALS.lifecycle);
      held.release(); // the turn on the stopped container ends (in production: interrupted)
      await turnsRan('m0', 'm1');
      const { timeline } = t.world;
      expect(timeline.indexOf('ended m0')).to.be.below(timeline.indexOf('startWorkspace'), 'the container is started once the running turn has ended');
      expect(timeline.indexOf('startWorkspace')).to.be.below(timeline.indexOf('ended m1'), 'the waiting chat goes on once it is started');
      expect(t.world.callsTo('startWorkspace').map((c) => c.taskQueue)).to.deep.equal([hostQueue('a')]);
      expect(t.world.statuses()).to.deep.equal([{ status: 'active' }]);
      await ws.stateBecomes(idle);
    });

    for (const [how, startResult, error] of [
      ['answers a failure', { ok: false, error: 'the image is gone' }, 'the image is gone'],
      ['throws', ApplicationFailure.create({ message: 'the Docker engine does not answer', nonRetryable: true }), 'the Docker engine does not answer'],
    ] as const) {
      it(`goes to error when starting its stopped container again ${how}, telling its run the turn was interrupted`, async () => {
        t.world.placement = t.world.host('a');
        t.world.startResult = startResult;
        await t.startSharedWorker();
        await t.startHostWorker('a');
        const run = await t.startListener('automation');
        const ws = await t.startWorkspace(t.input({ reportTo: { workflowId: run.workflowId, messageId: 'm1' } }));
        await ws.stateBecomes(idle);
        await ws.lifecycle('restart');
        await ws.handle.result();
        const message = `the workspace's container stopped (was its Docker engine restarted?) and could not be started again: ${error}`;
        expect(await run.outcomes()).to.deep.equal([{ ok: false, error: message, interrupted: true }]);
        expect(t.world.statuses()).to.deep.equal([{ status: 'active' }, { status: 'error', error: message }]);
      });
    }
  });

  describe('a workspace that cannot start', () => {
    it('goes to error when no host can take it', async () => {
      t.world.placement = ApplicationFailure.create({ message: 'no live worker host has room', type: 'NoWorkerHost', nonRetryable: true });
      await t.startSharedWorker();
      const run = await t.startListener('automation');
      const ws = await t.startWorkspace(t.input({ firstChatId: 'c1', reportTo: { workflowId: run.workflowId, messageId: 'm1' } }));
      await ws.handle.result();
      expect(t.world.statuses()).to.deep.equal([{ status: 'error', error: 'the workspace could not be placed on a worker host: no live worker host has room' }]);
      expect(await run.outcomes()).to.deep.equal([{ ok: false, error: 'the workspace failed to start' }]);
      expect(t.world.callsTo('provisionWorkspace')).to.deep.equal([]);
    });

    it('removes a half-built container and goes to error when provisioning fails', async () => {
      t.world.placement = t.world.host('a');
      t.world.provisionResult = { ok: false, error: 'the start hook failed' };
      await t.startSharedWorker();
      await t.startHostWorker('a');
      const ws = await t.startWorkspace(t.input({ firstChatId: 'c1' }));
      await ws.handle.result();
      expect(t.world.calls.filter((c) => c.taskQueue === hostQueue('a')).map((c) => c.name)).to.deep.equal(['provisionWorkspace', 'removeWorkspace']);
      expect(t.world.statuses()).to.deep.equal([{ status: 'error', error: 'the start hook failed' }]);
      expect(t.world.webhookEvents()).to.deep.equal([{ event: 'replica.error', payload: { status: 'error', message: 'the start hook failed' } }]);
    });

    it('fails the workflow when provisioning throws instead of answering a failure', async () => {
      t.world.placement = t.world.host('a');
      t.world.provisionResult = ApplicationFailure.create({ message: 'the replica row is unreadable', nonRetryable: true });
      await t.startSharedWorker();
      await t.startHostWorker('a');
      const ws = await t.startWorkspace(t.input({ firstChatId: 'c1' }));
      const failure = await ws.handle.result().then(
        () => null,
        (err: Error) => err,
      );
      expect(failure?.name).to.equal('WorkflowFailedError');
      expect(t.world.statuses()).to.deep.equal([], 'nothing was written: the record stays as it was');
    });

    it('tells its environment\'s warm pool when it took one of its entries', async () => {
      t.world.placement = t.world.host('a');
      const environmentId = `env-${t.taskQueue}`;
      t.world.provisionResult = { ok: true, warmPoolEnvironmentId: environmentId };
      await t.startSharedWorker();
      await t.startHostWorker('a');
      const pool = await t.startListener('pool', warmPoolWorkflowId(environmentId));
      const ws = await t.startWorkspace(t.input());
      await ws.stateBecomes(idle);
      await until('the warm pool to be signalled', async () => (await pool.signals()).length > 0);
      expect(await pool.signals()).to.deep.equal([{ signal: WARM_POOL_SIGNALS.changed, args: [] }]);
    });

    it('runs on the shared queue when placement names no host (a workspace from before hosts), also after continuing as new', async () => {
      t.world.placement = null;
      t.world.queue('c1', { id: 'm1' });
      await t.startSharedWorker();
      const ws = await t.startWorkspace(t.input({ firstChatId: 'c1', hasWebhook: false, historyLimit: 20 }));
      await turnsRan('m1');
      await until('the workflow to continue as new', async () => (await ws.describe()).runId !== ws.firstRunId);
      await ws.stateBecomes(idle);
      t.world.queue('c1', { id: 'm2' });
      await ws.workRequested('c1');
      await turnsRan('m2');
      expect(t.world.turnsRun.map((r) => r.taskQueue)).to.deep.equal([t.taskQueue, t.taskQueue]);
      expect(t.world.callsTo('provisionWorkspace').map((c) => c.taskQueue)).to.deep.equal([t.taskQueue]);
      expect(t.world.callsTo('deliverReplicaWebhook')).to.deep.equal([], 'no webhook_url, no deliveries');
    });
  });
});
