import { expect } from 'chai';
import { adapterFor, type AgentAdapter, type ParsedLine } from '../../../src/agents/adapters';
import type { AgentId } from '../../../src/agents/catalog';

/** Feeds lines to a fresh adapter, as one turn does. */
function feed(agent: AgentId, lines: string[]): { adapter: AgentAdapter; parsed: ParsedLine[] } {
  const adapter = adapterFor(agent);
  return { adapter, parsed: lines.map((line) => adapter.parse(line)) };
}
const types = (parsed: ParsedLine[]) => parsed.flatMap((p) => p.events.map((e) => e.type));
const last = <T>(items: T[]) => items[items.length - 1]!;

describe('agent adapter stream parsing', () => {
  it('agent_1: SDK messages become agent_1-* events and the result ends the turn', () => {
    const { parsed } = feed('agent_1', [
      '{"type":"system","subtype":"init","session_id":"s-1","cwd":"/w","model":"m","tools":["Bash"],"permissionMode":"bypassPermissions"}',
      '{"type":"assistant","message":{"id":"msg_1","type":"message","role":"assistant","content":[{"type":"thinking","thinking":"hmm"},{"type":"text","text":"Looking"}]},"parent_tool_use_id":null,"session_id":"s-1"}',
      '{"type":"assistant","message":{"role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"Bash","input":{"command":"ls"}}]},"parent_tool_use_id":null,"session_id":"s-1"}',
      '{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"a.txt","is_error":false}]},"parent_tool_use_id":null,"session_id":"s-1"}',
      '{"type":"stream_event","event":{"type":"content_block_delta"},"session_id":"s-1"}',
      '',
      '{"type":"result","subtype":"success","is_error":false,"duration_ms":812,"num_turns":2,"result":"Done: a.txt","session_id":"s-1","total_cost_usd":0.01}',
    ]);
    expect(types(parsed)).to.deep.equal(['agent_1-system', 'agent_1-assistant', 'agent_1-assistant', 'agent_1-user', 'agent_1-result']);
    expect(parsed[0]!.sessionId).to.equal('s-1');
    // A thinking block also carries `text`, where the original's history documents it.
    expect((parsed[1]!.events[0]!.payload as { message: { content: unknown[] } }).message.content[0]).to.deep.equal({ type: 'thinking', thinking: 'hmm', text: 'hmm' });
    expect((parsed[2]!.events[0]!.payload as { message: { content: unknown[] } }).message.content[0]).to.deep.equal({ type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'ls' } });
    expect(parsed.slice(0, -1).every((p) => p.result === undefined)).to.equal(true);
    expect(last(parsed).result).to.deep.equal({ ok: true, sessionId: 's-1', text: 'Done: a.txt' });

    const failed = feed('agent_1', ['{"type":"result","subtype":"error_max_turns","is_error":true,"errors":["too many turns"],"session_id":"s-2"}']).parsed;
    expect(failed[0]!.result).to.deep.equal({ ok: false, sessionId: 's-2', error: 'too many turns' });

    // Retries of an outage go on; a refused credential stops the turn.
    const retries = feed('agent_1', [
      '{"type":"system","subtype":"api_retry","attempt":1,"error_status":529,"error":"overloaded","session_id":"s-3"}',
      '{"type":"system","subtype":"api_retry","attempt":2,"error_status":401,"error":"authentication_failed","session_id":"s-3"}',
    ]).parsed;
    expect(types(retries)).to.deep.equal(['agent_1-system', 'agent_1-system']);
    expect(retries[0]!.stop).to.equal(undefined);
    expect(retries[1]!.stop?.ok).to.equal(false);
    expect(retries[1]!.stop?.error).to.match(/401 authentication_failed.*\/v1\/user\/credentials\/agent_1/);
  });

  it('agent_2: thread events become event_msg and response_item transcript entries', () => {
    const { parsed } = feed('agent_2', [
      '{"type":"thread.started","thread_id":"th-9"}',
      '{"type":"turn.started"}',
      '{"type":"item.completed","item":{"id":"item_0","type":"reasoning","text":"**Planning**"}}',
      '{"type":"item.started","item":{"id":"item_1","type":"command_execution","command":"bash -lc ls","aggregated_output":"","exit_code":null,"status":"in_progress"}}',
      '{"type":"item.completed","item":{"id":"item_1","type":"command_execution","command":"bash -lc ls","aggregated_output":"a.txt\\n","exit_code":0,"status":"completed"}}',
      '{"type":"item.completed","item":{"id":"item_2","type":"file_change","changes":[{"path":"a.txt","kind":"update"}],"status":"completed"}}',
      '{"type":"item.started","item":{"id":"item_3","type":"todo_list","items":[{"text":"fix","completed":false}]}}',
      '{"type":"item.completed","item":{"id":"item_4","type":"agent_message","text":"All fixed."}}',
      '{"type":"turn.completed","usage":{"input_tokens":10,"cached_input_tokens":0,"output_tokens":5}}',
    ]);
    const payloads = parsed.flatMap((p) => p.events.map((e) => [e.type, (e.payload as { type: string }).type, (e.payload as { name?: string }).name ?? null]));
    expect(payloads).to.deep.equal([
      ['event_msg', 'session_configured', null],
      ['event_msg', 'task_started', null],
      ['event_msg', 'agent_reasoning', null],
      ['response_item', 'function_call', 'shell'],
      ['response_item', 'function_call_output', null],
      ['response_item', 'custom_tool_call', 'apply_patch'],
      ['response_item', 'custom_tool_call_output', null],
      ['response_item', 'function_call', 'update_plan'],
      ['response_item', 'message', null],
      ['event_msg', 'task_complete', null],
    ]);
    expect(JSON.parse((parsed[4]!.events[0]!.payload as { output: string }).output)).to.deep.equal({ output: 'a.txt\n', metadata: { exit_code: 0 } });
    expect(last(parsed).result).to.deep.equal({ ok: true, sessionId: 'th-9', text: 'All fixed.' });

    const failed = feed('agent_2', ['{"type":"thread.started","thread_id":"th-1"}', '{"type":"error","message":"stream dropped"}', '{"type":"turn.failed","error":{"message":"quota exceeded"}}']).parsed;
    expect(failed[1]!.result).to.equal(undefined);
    expect(failed[2]!.result).to.deep.equal({ ok: false, sessionId: 'th-1', error: 'quota exceeded' });
  });

  it('agent_3: stream-json lines become agent_3-* events, tasks apart from tool calls', () => {
    const { parsed } = feed('agent_3', [
      '{"type":"system","subtype":"init","apiKeySource":"env","cwd":"/w","session_id":"c-1","model":"m","permissionMode":"default"}',
      '{"type":"user","message":{"role":"user","content":[{"type":"text","text":"fix"}]},"session_id":"c-1"}',
      '{"type":"thinking","subtype":"delta","text":"considering","session_id":"c-1"}',
      '{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"Reading files"}]},"session_id":"c-1"}',
      '{"type":"tool_call","subtype":"started","call_id":"t1","tool_call":{"readToolCall":{"args":{"path":"a.txt"}}},"session_id":"c-1"}',
      '{"type":"tool_call","subtype":"completed","call_id":"t2","tool_call":{"taskToolCall":{"args":{"description":"sub"}}},"session_id":"c-1"}',
      '{"type":"result","subtype":"success","duration_ms":100,"is_error":false,"result":"Reading files","session_id":"c-1","request_id":"r-1"}',
    ]);
    expect(types(parsed)).to.deep.equal(['agent_3-status', 'agent_3-thinking', 'agent_3-assistant', 'agent_3-tool_call', 'agent_3-task', 'agent_3-status']);
    expect(last(parsed).result).to.deep.equal({ ok: true, sessionId: 'c-1', text: 'Reading files' });
    const failed = feed('agent_3', ['{"type":"result","subtype":"error","is_error":true,"result":"invalid API key","session_id":"c-2"}']).parsed;
    expect(types(failed)).to.deep.equal(['agent_3-error']);
    expect(failed[0]!.result).to.deep.equal({ ok: false, sessionId: 'c-2', error: 'invalid API key' });
  });

  it('agent_4: parts become agent_4-<type>, timestamped by the agent; stop or error ends the turn', () => {
    const { parsed } = feed('agent_4', [
      '{"type":"step_start","timestamp":1767225600000,"sessionID":"ses_1","part":{"type":"step-start"}}',
      '{"type":"tool_use","timestamp":1767225601000,"sessionID":"ses_1","part":{"type":"tool","tool":"bash","state":{"status":"completed","input":{"command":"ls"},"output":"a.txt"}}}',
      '{"type":"step_finish","timestamp":1767225602000,"sessionID":"ses_1","part":{"type":"step-finish","reason":"tool-calls"}}',
      '{"type":"text","timestamp":1767225603000,"sessionID":"ses_1","part":{"type":"text","text":"Done."}}',
      '{"type":"step_finish","timestamp":1767225604000,"sessionID":"ses_1","part":{"type":"step-finish","reason":"stop"}}',
    ]);
    expect(types(parsed)).to.deep.equal(['agent_4-step_start', 'agent_4-tool_use', 'agent_4-step_finish', 'agent_4-text', 'agent_4-step_finish']);
    expect(parsed[0]!.events[0]!.timestamp).to.equal('2026-01-01T00:00:00.000Z');
    expect(parsed[2]!.result).to.equal(undefined);
    expect(last(parsed).result).to.deep.equal({ ok: true, sessionId: 'ses_1', text: 'Done.' });
    const failed = feed('agent_4', ['{"type":"error","sessionID":"ses_2","error":{"name":"APIError","data":{"message":"rate limited"}}}']).parsed;
    expect(failed[0]!.result).to.deep.equal({ ok: false, sessionId: 'ses_2', error: 'rate limited' });
  });

  it('agent_5: agent events become agent_5-<type> without deltas; agent_end ends the turn', () => {
    const assistant = (text: string, stop = 'stop', extra = '') =>
      `{"type":"message_end","message":{"role":"assistant","content":[{"type":"text","text":"${text}"}],"stopReason":"${stop}"${extra}}}`;
    const { parsed } = feed('agent_5', [
      '{"type":"session","version":3,"id":"p-1","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/w"}',
      '{"type":"agent_start"}',
      '{"type":"message_start","message":{"role":"assistant","content":[]}}',
      '{"type":"message_update","assistantMessageEvent":{"type":"text_delta","delta":"Do"}}',
      assistant('Done.'),
      '{"type":"tool_execution_start","toolCallId":"t1","toolName":"bash","args":{"command":"ls"}}',
      '{"type":"tool_execution_end","toolCallId":"t1","toolName":"bash","result":{"content":[{"type":"text","text":"a.txt"}]},"isError":false}',
      '{"type":"agent_end","messages":[{"role":"assistant"}]}',
    ]);
    expect(types(parsed)).to.deep.equal(['agent_5-session', 'agent_5-agent_start', 'agent_5-message_end', 'agent_5-tool_execution_start', 'agent_5-tool_execution_end', 'agent_5-agent_end']);
    expect(parsed[0]!.events[0]!.timestamp).to.equal('2026-01-01T00:00:00.000Z');
    expect(last(parsed).events[0]!.payload).to.deep.equal({ type: 'agent_end', messageCount: 1 });
    expect(last(parsed).result).to.deep.equal({ ok: true, sessionId: 'p-1', text: 'Done.' });
    const failed = feed('agent_5', ['{"type":"session","id":"p-2"}', assistant('', 'error', ',"errorMessage":"401 from the router"'), '{"type":"agent_end","messages":[]}']).parsed;
    expect(last(failed).result).to.deep.equal({ ok: false, sessionId: 'p-2', error: '401 from the router' });
  });

  it('keeps malformed lines as raw text events instead of failing', () => {
    const expected: Record<AgentId, [string, string]> = {
      agent_1: ['agent_1-system', 'raw_output'],
      agent_2: ['event_msg', 'raw_output'],
      agent_3: ['agent_3-status', 'raw_output'],
      agent_4: ['agent_4-system', 'raw_output'],
      agent_5: ['agent_5-system', 'raw_output'],
    };
    for (const [agent, [type, kind]] of Object.entries(expected) as Array<[AgentId, [string, string]]>) {
      for (const line of ['Warning: something odd {', '[1,2]', '42', '"text"', 'null']) {
        const parsed = adapterFor(agent).parse(line);
        expect(parsed.result, `${agent} ${line}`).to.equal(undefined);
        expect(parsed.events, `${agent} ${line}`).to.have.length(1);
        expect(parsed.events[0]!.type).to.equal(type);
        expect(parsed.events[0]!.payload).to.deep.include({ text: line });
        expect(JSON.stringify(parsed.events[0]!.payload)).to.include(kind);
      }
      expect(adapterFor(agent).parse('   ').events).to.deep.equal([]);
    }
    // An object of an unknown type is kept, under a safe type name.
    expect(types([adapterFor('agent_4').parse('{"type":"Weird Type!","x":1}')])).to.deep.equal(['agent_4-system']);
    expect(types([adapterFor('agent_1').parse('{"type":"control_request"}')])).to.deep.equal(['agent_1-system']);
  });
});
