/**
 * The model server against the vendors' own SDKs: if the official clients accumulate its streams
 * into the right messages, tool calls and usage, the CLIs built on the same wire formats will too.
 */
import Anthropic from '@anthropic-ai/sdk';
import { expect } from 'chai';
import OpenAI from 'openai';
import { gzipSync } from 'node:zlib';
import { shellCall, startModelServer, type ModelCall, type ModelServer } from '../../support/modelServer';

const bashTool = { name: 'Bash', description: 'Run a command', input_schema: { type: 'object' as const, properties: { command: { type: 'string' } }, required: ['command'] } };
const codexShell = { type: 'function' as const, name: 'shell', strict: false, parameters: { type: 'object', properties: { command: { type: 'array', items: { type: 'string' } } }, required: ['command'] } };
const opencodeBash = {
  type: 'function' as const,
  function: { name: 'bash', parameters: { type: 'object', properties: { command: { type: 'string' }, description: { type: 'string' } }, required: ['command', 'description'] } },
};

/** The agent loop every CLI runs: a shell call first, then text once the tool's output came back. */
const shellThenDone = (command: string) => (call: ModelCall) =>
  call.toolResults.length === 0 ? { text: 'Let me run that.', toolCall: shellCall(call, command) } : { text: `Done: ${call.toolResults[0].output}` };

async function rejection(promise: Promise<unknown>): Promise<any> {
  try {
    await promise;
  } catch (err) {
    return err;
  }
  throw new Error('expected a rejection');
}

describe('model server, driven by the vendor SDKs', () => {
  let server: ModelServer;
  let anthropic: Anthropic;
  let openai: OpenAI;

  beforeEach(async () => {
    server = await startModelServer({ models: ['model-a', 'model-b'] });
    // Prefixes as a gateway would add them: routes go by the path's ending. No retries, so each
    // scripted answer meets exactly one request.
    anthropic = new Anthropic({ baseURL: `${server.url}/anthropic`, apiKey: 'sk-ant-test', maxRetries: 0 });
    openai = new OpenAI({ baseURL: `${server.url}/openai/v1`, apiKey: 'sk-test', maxRetries: 0 });
  });
  afterEach(() => server.close());

  describe('Anthropic Messages', () => {
    it('streams text and a tool_use block the SDK accumulates, then the answer to its result, with usage', async () => {
      server.script(shellThenDone('echo hi > a.txt'));
      const params = { model: 'claude-test', max_tokens: 1024, system: 'You are Claude Code.', tools: [bashTool] };
      const messages: Anthropic.MessageParam[] = [{ role: 'user', content: 'make a.txt' }];
      const stream = anthropic.messages.stream({ ...params, messages });
      const types: string[] = [];
      const jsonPieces: string[] = [];
      stream.on('streamEvent', (e) => types.push(e.type));
      stream.on('inputJson', (piece) => jsonPieces.push(piece));
      const first = await stream.finalMessage();

      expect(first.stop_reason).to.equal('tool_use');
      expect(first.content[0]).to.deep.include({ type: 'text', text: 'Let me run that.' });
      const toolUse = first.content[1] as Anthropic.ToolUseBlock;
      expect(toolUse).to.deep.include({ type: 'tool_use', name: 'Bash', input: { command: 'echo hi > a.txt' } });
      expect(toolUse.id).to.match(/^toolu_/);
      expect(jsonPieces.length).to.be.greaterThan(2);
      expect(types[0]).to.equal('message_start');
      expect(types.slice(-2)).to.deep.equal(['message_delta', 'message_stop']);
      const usage = server.calls[0].usage!;
      expect(first.usage).to.include({ input_tokens: usage.inputTokens, output_tokens: usage.outputTokens });
      expect(usage.outputTokens).to.equal(Math.ceil(('Let me run that.'.length + 'Bash'.length + '{"command":"echo hi > a.txt"}'.length) / 4));
      expect(server.calls[0].reply!.toolCalls![0].id).to.equal(toolUse.id);

      messages.push({ role: 'assistant', content: first.content }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: toolUse.id, content: 'written' }] });
      const second = await anthropic.messages.stream({ ...params, messages }).finalMessage();
      expect(second.content).to.deep.equal([{ type: 'text', text: 'Done: written' }]);
      expect(second.stop_reason).to.equal('end_turn');
      const call = server.modelCalls[1];
      expect(call.toolResults).to.deep.equal([{ id: toolUse.id, name: 'Bash', output: 'written', isError: false }]);
      expect(call).to.include({ format: 'anthropic', system: 'You are Claude Code.', prompt: 'make a.txt', shellTool: 'Bash', stream: true });
      expect(call.transcript).to.include('[user] make a.txt').and.include(`[tool_call Bash#${toolUse.id}] {"command":"echo hi > a.txt"}`);
    });

    it('answers without streaming, counts tokens and lists models in its own shape', async () => {
      server.script([{ toolCall: { name: 'Bash', arguments: { command: 'ls' } } }]);
      const message = await anthropic.messages.create({ model: 'claude-test-small', max_tokens: 10, tools: [bashTool], messages: [{ role: 'user', content: 'hi' }] });
      expect(message.content).to.have.length(1);
      expect(message.content[0]).to.deep.include({ type: 'tool_use', name: 'Bash', input: { command: 'ls' } });
      expect(message.usage.input_tokens).to.equal(server.calls[0].usage!.inputTokens).and.be.greaterThan(0);

      const count = await anthropic.messages.countTokens({ model: 'claude-test-small', messages: [{ role: 'user', content: 'hi' }] });
      expect(count.input_tokens).to.equal(server.calls[1].usage!.inputTokens);
      const models = [];
      for await (const m of anthropic.models.list()) models.push(m.id);
      expect(models).to.deep.equal(['model-a', 'model-b']);
      expect(server.calls.map((c) => c.endpoint)).to.deep.equal(['messages', 'count_tokens', 'models']);
    });

    it('surfaces scripted statuses as typed errors, and x-should-retry: false stops the retries', async () => {
      server.script([{ error: { status: 529, message: 'Overloaded' } }, { error: { status: 429, message: 'slow down', retry: false } }]);
      const overloaded = await rejection(anthropic.messages.create({ model: 'm', max_tokens: 5, messages: [{ role: 'user', content: 'x' }] }));
      expect(overloaded).to.be.instanceOf(Anthropic.InternalServerError);
      expect(overloaded).to.include({ status: 529, apiMessage: 'Overloaded', type: 'overloaded_error' });
      const retrying = new Anthropic({ baseURL: server.url, apiKey: 'k', maxRetries: 3 });
      const limited = await rejection(retrying.messages.stream({ model: 'm', max_tokens: 5, messages: [{ role: 'user', content: 'x' }] }).finalMessage());
      expect(limited).to.be.instanceOf(Anthropic.RateLimitError);
      expect(limited.message).to.include('slow down');
      expect(server.calls).to.have.length(2);
    });

    it('a stalled stream stays open until the client aborts it', async () => {
      server.script([{ text: 'a long answer that never finishes arriving', fault: { kind: 'stall', afterEvents: 4 } }]);
      const stream = anthropic.messages.stream({ model: 'm', max_tokens: 5, messages: [{ role: 'user', content: 'x' }] });
      await new Promise((resolve) => stream.once('text', resolve));
      const stalled = await server.waitFor('the stall', (calls) => calls[0]?.outcome === 'stalled');
      expect(stalled).to.equal(true);
      stream.abort();
      expect(await rejection(stream.finalMessage())).to.be.instanceOf(Anthropic.APIUserAbortError);
      await server.waitFor('the client to close', (calls) => calls[0].clientClosed);
    });

    it('a dropped stream fails the SDK instead of ending quietly', async () => {
      server.script([{ text: 'cut short in the middle of the answer', fault: 'drop' }]);
      const err = await rejection(anthropic.messages.stream({ model: 'm', max_tokens: 5, messages: [{ role: 'user', content: 'x' }] }).finalMessage());
      // undici's "terminated", wrapped: not an APIConnectionError, which only covers failures before the response.
      expect(err).to.be.instanceOf(Anthropic.AnthropicError).and.include({ message: 'terminated' });
      expect(server.calls[0].outcome).to.equal('dropped');
    });
  });

  describe('OpenAI Responses', () => {
    it('streams a function call with parsed arguments and response.completed, then text for its output', async () => {
      server.script(shellThenDone('git status'));
      const base = { model: 'gpt-5-codex', instructions: 'You are Codex.', tools: [codexShell], store: false };
      const stream = openai.responses.stream({ ...base, input: [{ role: 'user', content: 'check the repo' }] });
      const types: string[] = [];
      stream.on('event', (e) => types.push(e.type));
      const first = await stream.finalResponse();
      const fc = first.output.find((o) => o.type === 'function_call')!;
      expect(fc).to.include({ type: 'function_call', name: 'shell' });
      expect(JSON.parse(fc.arguments)).to.deep.equal({ command: ['bash', '-lc', 'git status'] });
      expect(first.output_text).to.equal('Let me run that.');
      expect(types).to.include.members(['response.created', 'response.in_progress', 'response.output_text.delta', 'response.function_call_arguments.delta', 'response.output_item.done']);
      expect(types.at(-1)).to.equal('response.completed');
      const usage = server.calls[0].usage!;
      expect(first.usage).to.include({ input_tokens: usage.inputTokens, output_tokens: usage.outputTokens, total_tokens: usage.inputTokens + usage.outputTokens });

      const events = await openai.responses.create({
        ...base,
        stream: true,
        input: [{ role: 'user', content: 'check the repo' }, fc, { type: 'function_call_output', call_id: fc.call_id, output: 'clean' }],
      });
      const seen: OpenAI.Responses.ResponseStreamEvent[] = [];
      for await (const e of events) seen.push(e);
      expect(seen.map((e) => e.sequence_number)).to.deep.equal(seen.map((_, i) => i));
      const completed = seen.at(-1) as OpenAI.Responses.ResponseCompletedEvent;
      expect(completed.type).to.equal('response.completed');
      // `output_text` is the SDK's convenience on whole responses; on the wire the text is in the message item.
      expect(completed.response.output).to.deep.include({
        id: completed.response.output[0].id,
        type: 'message',
        status: 'completed',
        role: 'assistant',
        content: [{ type: 'output_text', text: 'Done: clean', annotations: [], logprobs: [] }],
      });
      expect(server.modelCalls[1]).to.include({ format: 'responses', system: 'You are Codex.', shellTool: 'shell', prompt: 'check the repo' });
      expect(server.modelCalls[1].toolResults).to.deep.equal([{ id: fc.call_id, name: 'shell', output: 'clean', isError: false }]);
    });

    it('answers without streaming, and errors in the OpenAI shape', async () => {
      server.script([{ text: 'plain' }, { error: { status: 429, message: 'Rate limit reached' } }]);
      const response = await openai.responses.create({ model: 'gpt-5', input: 'hello' });
      expect(response.output_text).to.equal('plain');
      expect(server.modelCalls[0].prompt).to.equal('hello');
      const err = await rejection(openai.responses.create({ model: 'gpt-5', input: 'again' }));
      expect(err).to.be.instanceOf(OpenAI.RateLimitError);
      expect(err).to.include({ status: 429, code: 'rate_limit_exceeded' });
      expect(err.message).to.equal('429 Rate limit reached');
    });

    it('a stalled stream is aborted through the request signal', async () => {
      server.script([{ text: 'never completes', fault: 'stall' }]);
      const controller = new AbortController();
      const events = await openai.responses.create({ model: 'gpt-5', input: 'x', stream: true }, { signal: controller.signal });
      const seen: string[] = [];
      for await (const e of events) {
        seen.push(e.type);
        if (e.type === 'response.output_text.delta') controller.abort();
      }
      expect(seen).to.not.include('response.completed');
      await server.waitFor('the client to close', (calls) => calls[0].clientClosed);
    });
  });

  describe('Chat Completions', () => {
    it('streams tool call arguments in pieces and a usage chunk before [DONE]', async () => {
      server.script(shellThenDone('npm test'));
      const messages: OpenAI.ChatCompletionMessageParam[] = [
        { role: 'system', content: 'You are opencode.' },
        { role: 'user', content: 'run the tests' },
      ];
      const chunks = await openai.chat.completions.create({ model: 'router/model', messages, tools: [opencodeBash], stream: true, stream_options: { include_usage: true } });
      let id = '';
      let name = '';
      let args = '';
      let argPieces = 0;
      let finish: string | null = null;
      let usage: OpenAI.CompletionUsage | null | undefined;
      for await (const chunk of chunks) {
        for (const tc of chunk.choices[0]?.delta.tool_calls ?? []) {
          id ||= tc.id ?? '';
          name ||= tc.function?.name ?? '';
          if (tc.function?.arguments) argPieces++;
          args += tc.function?.arguments ?? '';
        }
        finish = chunk.choices[0]?.finish_reason ?? finish;
        if (chunk.usage) usage = chunk.usage;
      }
      expect(name).to.equal('bash');
      expect(argPieces).to.be.greaterThan(1);
      expect(JSON.parse(args)).to.deep.equal({ command: 'npm test', description: 'Run npm test' });
      expect(finish).to.equal('tool_calls');
      const recorded = server.calls[0].usage!;
      expect(usage).to.include({ prompt_tokens: recorded.inputTokens, completion_tokens: recorded.outputTokens });

      // The SDK's own accumulator checks each chunk's shape (role, tool call type and name).
      messages.push({ role: 'assistant', content: null, tool_calls: [{ id, type: 'function', function: { name, arguments: args } }] }, { role: 'tool', tool_call_id: id, content: '3 passing' });
      const final = await openai.chat.completions.stream({ model: 'router/model', messages, tools: [opencodeBash] }).finalChatCompletion();
      expect(final.choices[0].message.content).to.equal('Done: 3 passing');
      expect(final.choices[0].finish_reason).to.equal('stop');
      expect(server.modelCalls[1]).to.include({ system: 'You are opencode.', shellTool: 'bash' });
    });

    it('answers without streaming; a new prompt starts with no tool results; models list under /api/v1', async () => {
      server.script((call) => ({ text: `seen ${call.toolResults.length} of ${call.allToolResults.length}` }));
      const completion = await openai.chat.completions.create({
        model: 'm',
        messages: [
          { role: 'user', content: 'first' },
          { role: 'assistant', tool_calls: [{ id: 'c1', type: 'function', function: { name: 'bash', arguments: '{}' } }] },
          { role: 'tool', tool_call_id: 'c1', content: 'out' },
          { role: 'assistant', content: 'earlier answer' },
          { role: 'user', content: 'second' },
        ],
      });
      expect(completion.choices[0].message.content).to.equal('seen 0 of 1');
      expect(completion.usage!.prompt_tokens).to.equal(server.calls[0].usage!.inputTokens);
      expect(server.modelCalls[0].transcript).to.include('[assistant] earlier answer').and.include('[tool_result bash#c1] out');
      const router = new OpenAI({ baseURL: `${server.url}/api/v1`, apiKey: 'k', maxRetries: 0 });
      const models = [];
      for await (const m of router.models.list()) models.push(m.id);
      expect(models).to.deep.equal(['model-a', 'model-b']);
    });

    it('surfaces statuses as typed errors and a dropped stream as a failure', async () => {
      server.script([{ error: { status: 401, message: 'Incorrect API key provided' } }, { text: 'partial answer here', fault: { kind: 'drop', afterEvents: 2 } }]);
      const denied = await rejection(openai.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'x' }] }));
      expect(denied).to.be.instanceOf(OpenAI.AuthenticationError);
      expect(denied).to.include({ code: 'invalid_api_key', message: '401 Incorrect API key provided' });
      const stream = await openai.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'x' }], stream: true });
      const err = await rejection((async () => { for await (const _ of stream); })());
      // The raw stream passes undici's error through unwrapped.
      expect(err).to.be.instanceOf(TypeError).and.include({ message: 'terminated' });
    });
  });

  it('fits any CLI: shell tool shapes, compressed bodies, bad requests, unknown routes and an exhausted script', async () => {
    const tool = (name: string, properties: Record<string, unknown>) => ({ type: 'function', function: { name, parameters: { properties, required: Object.keys(properties) } } });
    server.script((call) => ({ toolCall: shellCall(call, 'ls') }));
    const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
      fetch(server.url + path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: typeof body === 'string' || body instanceof Uint8Array ? body : JSON.stringify(body) });
    const exec: any = await (await post('/v1/chat/completions', { model: 'm', messages: [], tools: [tool('read', {}), tool('exec_command', { cmd: { type: 'string' } })] })).json();
    expect(JSON.parse(exec.choices[0].message.tool_calls[0].function.arguments)).to.deep.equal({ cmd: 'ls' });
    const gz = await post('/v1/messages?beta=true', gzipSync(JSON.stringify({ model: 'm', max_tokens: 1, messages: [], tools: [bashTool] })), { 'content-encoding': 'gzip' });
    expect(((await gz.json()) as any).content[0].input).to.deep.equal({ command: 'ls' });
    const bad = await post('/v1/messages', { model: 'm', messages: [] });
    expect(bad.status).to.equal(400);
    expect(await bad.json()).to.deep.equal({ type: 'error', error: { type: 'invalid_request_error', message: 'max_tokens: Field required' } });
    expect((await post('/v1/embeddings', {})).status).to.equal(404);
    const noShell = await post('/v1/responses', { model: 'm', input: 'x' });
    expect(noShell.status).to.equal(500);
    expect(((await noShell.json()) as any).error.message).to.include('no shell tool among the offered tools');
    server.script([]);
    expect(((await (await post('/v1/responses', { model: 'm', input: 'x' })).json()) as any).error.message).to.include('no scripted reply left for call 3');
  });
});
