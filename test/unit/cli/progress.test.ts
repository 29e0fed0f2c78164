/** The pure parts of the user commands: the progress tracker's reading of events, and the text helpers. */
import { expect } from 'chai';
import { integerOption, summarizeAgentEvent, table, UsageError } from '../../../src/cli/format';
import { ProgressTracker } from '../../../src/cli/progress';

let ids = 0;
const event = (type: string, payload: Record<string, unknown>) => ({ id: String(++ids), ts: new Date().toISOString(), type, payload });

function feed(tracker: ProgressTracker, events: Array<ReturnType<typeof event>>): string[] {
  return events.flatMap((e) => tracker.next(e));
}

describe('cli: progress tracker', () => {
  it('follows a new workspace through its hooks to active, then its first turn to the end', () => {
    const tracker = new ProgressTracker({ kind: 'create', untilActive: false });
    const lines = feed(tracker, [
      event('replica.status.changed', { status: 'preparing', waking: false }),
      event('chat.created', { chat: { id: 'c1' } }),
      event('chat.turn.accepted', { chatId: 'c1', messageId: 'm1', queued: true, position: 0 }),
      event('hooks.started', { running: true, completed: false, total: 2, done: 0 }),
      event('hooks.progress', { hook: 'global', exitCode: 0, timedOut: false, total: 2, done: 1 }),
      event('hooks.failed', { hook: 'environment', exitCode: 3, timedOut: false, total: 2, done: 2 }),
      event('hooks.completed', { total: 2, done: 2 }),
      event('replica.status.changed', { status: 'active', waking: false }),
    ]);
    expect(tracker.outcome).to.equal(null);
    expect(lines).to.deep.equal([
      'workspace: preparing',
      'start hooks: running 2',
      'start hook global: done (1/2)',
      'start hook environment: failed (exit 3) (2/2)',
      'start hooks: completed',
      'workspace: active',
    ]);
    const turn = feed(tracker, [
      event('chat.turn.started', { chatId: 'c1', messageId: 'm1' }),
      event('chat.turn.delta', { chatId: 'c1', event: { type: 'agent_1-assistant', payload: { message: { content: [{ type: 'text', text: 'Hello\nthere' }] } } } }),
      event('chat.turn.completed', { chatId: 'c1', isComplete: true }),
      event('chat.turn.delta', { chatId: 'c1', event: { type: 'late' } }),
    ]);
    expect(turn).to.deep.equal(['turn: started', '  agent_1-assistant: Hello there', 'turn: completed']);
    expect(tracker.outcome).to.deep.equal({ ok: true });
  });

  it('stops at active when asked, and fails with the reason when provisioning fails', () => {
    const ready = new ProgressTracker({ kind: 'create', untilActive: true });
    feed(ready, [event('replica.status.changed', { status: 'active' })]);
    expect(ready.outcome).to.deep.equal({ ok: true });

    const broken = new ProgressTracker({ kind: 'create', untilActive: false });
    const lines = feed(broken, [event('replica.status.changed', { status: 'error', error: 'image missing' }), event('error', { code: 'provisioning_failed', message: 'image missing' })]);
    expect(lines).to.deep.equal(['workspace: error (image missing)']);
    expect(broken.outcome).to.deep.equal({ ok: false, error: 'image missing' });
  });

  it("waits for its own message's turn: other turns of the chat before it are not the end", () => {
    const tracker = new ProgressTracker({ kind: 'turn', messageId: 'm2', chatId: 'c1' });
    const lines = feed(tracker, [
      event('chat.turn.accepted', { chatId: 'c1', messageId: 'm2', queued: true, position: 1 }),
      event('chat.turn.delta', { chatId: 'c1', event: { type: 'agent_1-assistant', payload: { text: 'of the earlier turn' } } }),
      event('chat.turn.completed', { chatId: 'c1', isComplete: true }),
      event('error', { code: 'x', message: 'not mine', messageId: 'm1' }),
    ]);
    expect(lines).to.deep.equal(['message: queued (position 1)']);
    expect(tracker.outcome).to.equal(null);
    feed(tracker, [
      event('chat.turn.started', { chatId: 'c1', messageId: 'm2' }),
      event('error', { code: 'agent_stalled', message: 'the agent printed nothing', messageId: 'm2' }),
      event('chat.turn.completed', { chatId: 'c1', isComplete: false }),
    ]);
    expect(tracker.outcome).to.deep.equal({ ok: false, error: 'the agent printed nothing' });
  });
});

describe('cli: text helpers', () => {
  it('summarises the agents’ events in one line', () => {
    expect(summarizeAgentEvent({ type: 'agent_1-assistant', payload: { message: { content: [{ type: 'tool_use', name: 'Bash', input: { command: 'ls -la' } }] } } })).to.equal(
      'agent_1-assistant: tool Bash: ls -la',
    );
    expect(summarizeAgentEvent({ type: 'agent_1-result', payload: { type: 'result', result: 'Done' } })).to.equal('agent_1-result: Done');
    expect(summarizeAgentEvent({ type: 'event_msg', payload: { type: 'agent_reasoning', text: 'hmm' } })).to.equal('event_msg: hmm');
    expect(summarizeAgentEvent({ type: 'agent_1-system', payload: { subtype: 'init' } })).to.equal('agent_1-system: init');
    expect(summarizeAgentEvent({ type: 'x', payload: { text: 'a'.repeat(300) } }, 20)).to.equal(`x: ${'a'.repeat(19)}…`);
    expect(summarizeAgentEvent({ type: 'bare' })).to.equal('bare');
  });

  it('pads table columns but the last, and shows empty cells as -', () => {
    expect(table(['ID', 'NAME'], [['1', 'one'], ['22', null]])).to.equal('ID  NAME\n1   one\n22  -\n');
  });

  it('refuses options that are not whole numbers', () => {
    expect(integerOption('limit', '20')).to.equal(20);
    expect(integerOption('offset', '0', 0)).to.equal(0);
    expect(integerOption('limit', undefined)).to.equal(undefined);
    expect(() => integerOption('limit', '0')).to.throw(UsageError, /--limit/);
    expect(() => integerOption('limit', '2.5')).to.throw(UsageError);
    expect(() => integerOption('limit', 'ten')).to.throw(UsageError);
  });
});
