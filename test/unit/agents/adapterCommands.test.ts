import { expect } from 'chai';
import { AGENT_IDS } from '../../../src/agents/catalog';
import { adapterFor, AGENT_1_ENV, AGENT_2_ENV, AGENT_3_ENV, AGENT_4_ENV, AGENT_5_ENV, MAX_ARGUMENT_PROMPT_BYTES, type TurnRequest } from '../../../src/agents/adapters';

const SECRET = 'secret-value-never-in-argv';

const request = (overrides: Partial<TurnRequest> = {}): TurnRequest => ({
  prompt: 'fix the tests',
  model: null,
  thinkingLevel: null,
  planMode: false,
  goalMode: false,
  fastMode: false,
  chatId: '9b2d6a4e-0000-4000-8000-000000000001',
  resumeSessionId: null,
  credential: null,
  cwd: '/home/hangar/workspaces/demo',
  ...overrides,
});

describe('agent adapter command lines', () => {
  it('builds each agent CLI command line with the prompt last, after --', () => {
    const argv = (agent: (typeof AGENT_IDS)[number]) => adapterFor(agent).command(request()).argv;
    expect(argv('agent_1')).to.deep.equal(['agent_1', '-p', '--output-format', 'stream-json', '--verbose', '--permission-mode', 'bypassPermissions', '--effort', 'high', '--', 'fix the tests']);
    expect(argv('agent_2')).to.deep.equal(['agent_2', 'exec', '--json', '--skip-git-repo-check', '--sandbox', 'danger-full-access', '-c', 'model_reasoning_effort=medium', '--', 'fix the tests']);
    expect(argv('agent_3')).to.deep.equal(['agent_3', '-p', '--output-format', 'stream-json', '--force', '--reasoning-effort', 'medium', '--', 'fix the tests']);
    expect(argv('agent_4')).to.deep.equal(['agent_4', 'run', '--format', 'json', '--agent', 'build', '--variant', 'medium', '--', 'fix the tests']);
    // agent_5: the model picks its own thinking level.
    expect(argv('agent_5')).to.deep.equal(['agent_5', '-p', '--mode', 'json', '--', 'fix the tests']);
  });

  it('puts the model, thinking level, modes and session to resume where each CLI takes them', () => {
    const req = request({ model: 'm-1', thinkingLevel: 'xhigh', planMode: true, goalMode: true, fastMode: true, resumeSessionId: 'sess-42', prompt: '-starts with a dash' });
    const argv = (agent: (typeof AGENT_IDS)[number]) => adapterFor(agent).command(req).argv;
    expect(argv('agent_1')).to.deep.equal([
      'agent_1', '-p', '--output-format', 'stream-json', '--verbose', '--permission-mode', 'plan', '--model', 'm-1', '--effort', 'xhigh', '--fast', '--resume', 'sess-42', '--', '-starts with a dash',
    ]);
    expect(argv('agent_2')).to.deep.equal([
      'agent_2', 'exec', '--json', '--skip-git-repo-check', '--sandbox', 'read-only', '--model', 'm-1', '-c', 'model_reasoning_effort=xhigh', '-c', 'service_tier=fast', '-c', 'goal_mode=true', 'resume', 'sess-42', '--', '-starts with a dash',
    ]);
    expect(argv('agent_3')).to.deep.equal(['agent_3', '-p', '--output-format', 'stream-json', '--force', '--mode', 'plan', '--model', 'm-1', '--reasoning-effort', 'xhigh', '--resume', 'sess-42', '--', '-starts with a dash']);
    expect(argv('agent_4')).to.deep.equal(['agent_4', 'run', '--format', 'json', '--agent', 'plan', '--model', 'm-1', '--variant', 'xhigh', '--session', 'sess-42', '--', '-starts with a dash']);
    // agent_5 has no plan, goal or fast mode: the flags are not invented.
    expect(argv('agent_5')).to.deep.equal(['agent_5', '-p', '--mode', 'json', '--model', 'm-1', '--thinking', 'xhigh', '--session', 'sess-42', '--', '-starts with a dash']);
  });

  it('passes the credential only as the environment variable its CLI reads', () => {
    const cases = [
      ['agent_1', 'api_key', AGENT_1_ENV.api_key, 'AGENT_1_API_KEY'],
      ['agent_1', 'oauth_token', AGENT_1_ENV.oauth_token, 'AGENT_1_OAUTH_TOKEN'],
      ['agent_2', 'api_key', AGENT_2_ENV.api_key, 'AGENT_2_API_KEY'],
      ['agent_2', 'oauth_token', AGENT_2_ENV.oauth_token, 'AGENT_2_OAUTH_TOKEN'],
      ['agent_3', 'api_key', AGENT_3_ENV.api_key, 'AGENT_3_API_KEY'],
      ['agent_4', 'api_key', AGENT_4_ENV.api_key, 'AGENT_4_API_KEY'],
      ['agent_4', 'oauth_token', AGENT_4_ENV.oauth_token, 'AGENT_4_OAUTH_TOKEN'],
      ['agent_5', 'api_key', AGENT_5_ENV.api_key, 'AGENT_5_API_KEY'],
    ] as const;
    for (const [agent, kind, name, expected] of cases) {
      expect(name).to.equal(expected);
      const command = adapterFor(agent).command(request({ credential: { kind, secret: SECRET } }));
      expect(command.env, `${agent} ${kind}`).to.deep.equal({ [expected]: SECRET });
      expect(JSON.stringify(command.argv), `${agent} ${kind}`).to.not.include(SECRET);
    }
    for (const agent of AGENT_IDS) expect(adapterFor(agent).command(request()).env).to.deep.equal({});
  });

  it('swaps the executable for the test agent and names the protocol last', () => {
    for (const agent of AGENT_IDS) {
      const real = adapterFor(agent).command(request()).argv;
      const test = adapterFor(agent, { executableOverride: 'hangar-test-agent' }).command(request()).argv;
      expect(test).to.deep.equal(['hangar-test-agent', ...real.slice(1), '--protocol', agent]);
    }
    expect(adapterFor('agent_3', { executable: 'cli-3' }).command(request()).argv[0]).to.equal('cli-3');
  });

  it('moves a prompt too long for an argument to stdin', () => {
    const prompt = 'y'.repeat(MAX_ARGUMENT_PROMPT_BYTES + 1);
    const agent2 = adapterFor('agent_2').command(request({ prompt }));
    expect(agent2.stdin).to.equal(prompt);
    expect(agent2.argv.slice(-2)).to.deep.equal(['--', '-']);
    const agent1 = adapterFor('agent_1').command(request({ prompt }));
    expect(agent1.stdin).to.equal(prompt);
    expect(agent1.argv).to.not.include('--');
    expect(adapterFor('agent_1').command(request()).stdin).to.equal(undefined);
  });

  it('refuses an unknown agent', () => {
    expect(() => adapterFor('agent_9' as never)).to.throw(/Unknown coding agent/);
  });
});
