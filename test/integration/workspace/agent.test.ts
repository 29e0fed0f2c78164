import { expect } from 'chai';
import { AGENT_IDS, type AgentId } from '../../../src/agents/catalog';
import { adapterFor, type AgentEvent, type TurnRequest, type TurnResult } from '../../../src/agents/adapters';
import type { WorkspaceRuntime } from '../../../src/sandbox/workspace';
import { bareRepository, createTestRuntime, newReplicaId, sh } from './helpers';

const KEY = 'hgw_0123456789abcdef0123456789abcdef_the-workspace-placeholder';
/** The variable each CLI reads its (gateway) key from. */
const KEY_ENV = { agent_1: 'ANTHROPIC_API_KEY', agent_3: 'CURSOR_API_KEY' } as const;

interface Turn {
  exitCode: number;
  events: AgentEvent[];
  lines: string[];
  argv: string[];
  result?: TurnResult;
  sessionId?: string;
}

/** The text of every event payload, for "did the agent say X" checks across protocols. */
const said = (turn: Turn) => JSON.stringify(turn.events.map((e) => e.payload));

describe('the test agent in a workspace, through the adapters', () => {
  let runtime: WorkspaceRuntime;
  let repo: ReturnType<typeof bareRepository>;
  const replicaId = newReplicaId();
  let cwd: string;

  async function turn(agent: AgentId, prompt: string, overrides: Partial<TurnRequest> = {}): Promise<Turn> {
    const adapter = adapterFor(agent, { executableOverride: 'hangar-test-agent' });
    const command = adapter.command({
      prompt,
      model: null,
      thinkingLevel: null,
      planMode: false,
      goalMode: false,
      fastMode: false,
      chatId: 'chat-1',
      resumeSessionId: null,
      gateway: { baseUrl: `http://host.docker.internal:1/v1/ai-gateway/${agent}`, key: KEY },
      settings: { systemPrompt: null, mcpServers: {} },
      cwd,
      ...overrides,
    });
    const out: Turn = { exitCode: -1, events: [], lines: [], argv: command.argv };
    const { exitCode } = await runtime.exec(replicaId, {
      argv: command.argv,
      env: command.env,
      stdin: command.stdin,
      cwd,
      onStdoutLine: (line) => {
        out.lines.push(line);
        const parsed = adapter.parse(line);
        out.events.push(...parsed.events);
        out.sessionId = parsed.sessionId ?? out.sessionId;
        if (parsed.result) out.result = parsed.result;
      },
    });
    out.exitCode = exitCode;
    return out;
  }

  before(async () => {
    runtime = createTestRuntime();
    repo = bareRepository({ 'README.md': '# agent playground\n' });
    await runtime.ensure({ replicaId, size: 'small', env: {} });
    cwd = (await runtime.checkout(replicaId, { name: 'playground', url: repo.url, branch: 'main' })).path;
  });
  after(async () => {
    await runtime.remove(replicaId);
    repo.cleanup();
  });

  for (const agent of ['agent_1', 'agent_3'] as const) {
    it(`${agent}: writes, runs, commits, keeps its history across a stop and sees only the gateway key`, async () => {
      const first = await turn(
        agent,
        ['hello there', `!write notes/${agent}.md written by ${agent}`, `!run cat notes/${agent}.md`, `!commit ${agent} adds notes`, `!echo-env ${KEY_ENV[agent]}`, '!echo-env OPENAI_API_KEY', '!model'].join('\n'),
        { model: `${agent}-large` },
      );
      expect(first.exitCode, first.lines.join('\n')).to.equal(0);
      expect(first.result).to.include({ ok: true });
      expect(first.result?.sessionId).to.be.a('string').and.equal(first.sessionId);
      const types = new Set(first.events.map((e) => e.type));
      if (agent === 'agent_1') expect([...types]).to.have.members(['agent_1-system', 'agent_1-assistant', 'agent_1-user', 'agent_1-result']);
      else expect([...types]).to.have.members(['agent_3-status', 'agent_3-thinking', 'agent_3-assistant', 'agent_3-tool_call']);
      const text = said(first);
      for (const expected of ['turn 1 (0 earlier)', 'hello there', `written by ${agent}\\n`, `${KEY_ENV[agent]}=set`, 'OPENAI_API_KEY=unset', `model=${agent}-large`]) {
        expect(text).to.include(expected);
      }
      expect(JSON.stringify([first.argv, first.lines])).to.not.include(KEY);

      const repoState = await sh(runtime, replicaId, `git log --format=%s -n 1; cat notes/${agent}.md; git status --porcelain`, { cwd });
      expect(repoState.lines).to.deep.equal([`${agent} adds notes`, `written by ${agent}`]);

      await runtime.stop(replicaId);
      await runtime.start(replicaId);
      const second = await turn(agent, 'still there?', { resumeSessionId: first.result!.sessionId! });
      expect(second.exitCode).to.equal(0);
      expect(second.result).to.include({ ok: true, sessionId: first.result!.sessionId });
      expect(said(second)).to.include('turn 2 (1 earlier)');
    });
  }

  it('ends a turn with an error result and exit code 1 on !fail', async () => {
    for (const agent of ['agent_1', 'agent_3'] as const) {
      const failed = await turn(agent, 'before\n!fail the build is broken\nnever said');
      expect(failed.exitCode).to.equal(1);
      expect(failed.result).to.deep.include({ ok: false, error: 'the build is broken' });
      expect(said(failed)).to.not.include('never said');
    }
  });

  it('speaks every protocol its adapter parses, with model and modes on the command line', async () => {
    for (const agent of AGENT_IDS) {
      const result = await turn(agent, `!write proto/${agent}.txt ok\n!run test -f proto/${agent}.txt && echo present\n!flags`, {
        model: 'model-x',
        thinkingLevel: 'low',
        planMode: true,
      });
      expect(result.exitCode, `${agent}: ${result.lines.join('\n')}`).to.equal(0);
      expect(result.result, agent).to.include({ ok: true });
      expect(result.sessionId, agent).to.be.a('string');
      const text = said(result);
      expect(text, agent).to.include('turn 1 (0 earlier)');
      expect(text, agent).to.include('present');
      // agent_4 names the model by its provider, the gateway.
      const model = agent === 'agent_4' ? 'hangar/model-x' : 'model-x';
      expect(text, agent).to.include(`model=${model} plan=${agent !== 'agent_5'} protocol=${agent} resumed=false thinking=low`);
      expect(result.events.every((e) => !Number.isNaN(Date.parse(e.timestamp))), agent).to.equal(true);
    }
  });

  it('passes a prompt too long for an argument on stdin', async () => {
    const prompt = `!model\n${'x'.repeat(150_000)}`;
    const result = await turn('agent_2', prompt);
    expect(result.argv).to.not.include(prompt);
    expect(result.exitCode).to.equal(0);
    expect(said(result)).to.include('x'.repeat(150_000));
  });
});
