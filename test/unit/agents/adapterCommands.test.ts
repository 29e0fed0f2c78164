import { expect } from 'chai';
import { AGENT_IDS } from '../../../src/agents/catalog';
import { adapterFor, MAX_ARGUMENT_PROMPT_BYTES, type TurnRequest } from '../../../src/agents/adapters';

const KEY = 'hgw_0123456789abcdef0123456789abcdef_placeholder-never-in-argv';
const GATEWAY = 'http://host.docker.internal:8080/v1/ai-gateway';

const request = (overrides: Partial<TurnRequest> = {}): TurnRequest => ({
  prompt: 'fix the tests',
  model: null,
  thinkingLevel: null,
  planMode: false,
  goalMode: false,
  fastMode: false,
  chatId: '9b2d6a4e-0000-4000-8000-000000000001',
  resumeSessionId: null,
  cwd: '/home/hangar/workspaces/demo',
  gateway: { baseUrl: `${GATEWAY}/agent_x`, key: KEY },
  settings: { systemPrompt: null, mcpServers: {} },
  ...overrides,
});

describe('agent adapter command lines', () => {
  it('builds each agent CLI command line with the prompt last, after --', () => {
    const argv = (agent: (typeof AGENT_IDS)[number]) => adapterFor(agent).command(request()).argv;
    const at = (agent: (typeof AGENT_IDS)[number]) => adapterFor(agent).command(request({ gateway: { baseUrl: `${GATEWAY}/${agent}`, key: KEY } })).argv;
    expect(argv('agent_1')).to.deep.equal(['claude', '-p', '--output-format', 'stream-json', '--verbose', '--include-partial-messages', '--permission-mode', 'bypassPermissions', '--effort', 'high', '--', 'fix the tests']);
    expect(at('agent_2')).to.deep.equal(['codex', 'exec', '--json', '--skip-git-repo-check', '--sandbox', 'danger-full-access', '-c', 'model_reasoning_effort=medium', '--', 'fix the tests']);
    expect(argv('agent_3')).to.deep.equal(['cursor-agent', '-p', '--output-format', 'stream-json', '--force', '--reasoning-effort', 'medium', '--', 'fix the tests']);
    expect(argv('agent_4')).to.deep.equal(['opencode', 'run', '--format', 'json', '--agent', 'build', '--variant', 'medium', '--', 'fix the tests']);
    // agent_5: the model picks its own thinking level.
    // agent_5 has no `--`: its prompt always goes on stdin.
    expect(argv('agent_5')).to.deep.equal(['pi', '-p', '--mode', 'json', '--offline', '--provider', 'hangar']);
    expect(adapterFor('agent_5').command(request()).stdin).to.equal('fix the tests');
  });

  it('puts the model, thinking level, modes and session to resume where each CLI takes them', () => {
    const req = request({ model: 'm-1', thinkingLevel: 'xhigh', planMode: true, goalMode: true, fastMode: true, resumeSessionId: 'sess-42', prompt: '-starts with a dash' });
    const argv = (agent: (typeof AGENT_IDS)[number]) => adapterFor(agent).command(req).argv;
    expect(argv('agent_1')).to.deep.equal([
      'claude', '-p', '--output-format', 'stream-json', '--verbose', '--include-partial-messages', '--permission-mode', 'plan', '--model', 'm-1', '--effort', 'xhigh', '--fast', '--resume', 'sess-42', '--', '-starts with a dash',
    ]);
    expect(argv('agent_2').join(' ')).to.equal(
      'codex exec --json --skip-git-repo-check --sandbox read-only --model m-1 -c model_reasoning_effort=xhigh -c service_tier=fast -c goal_mode=true resume sess-42 -- -starts with a dash',
    );
    expect(argv('agent_3')).to.deep.equal(['cursor-agent', '-p', '--output-format', 'stream-json', '--force', '--mode', 'plan', '--model', 'm-1', '--reasoning-effort', 'xhigh', '--resume', 'sess-42', '--', '-starts with a dash']);
    expect(argv('agent_4')).to.deep.equal(['opencode', 'run', '--format', 'json', '--agent', 'plan', '--model', 'hangar/m-1', '--variant', 'xhigh', '--session', 'sess-42', '--', '-starts with a dash']);
    // agent_5 has no plan, goal or fast mode: the flags are not invented.
    expect(argv('agent_5')).to.deep.equal(['pi', '-p', '--mode', 'json', '--offline', '--provider', 'hangar', '--model', 'm-1', '--thinking', 'xhigh', '--session', 'sess-42']);
  });

  it('points each CLI at the gateway with the placeholder key, never on the command line', () => {
    for (const agent of AGENT_IDS) {
      const command = adapterFor(agent).command(request({ gateway: { baseUrl: `${GATEWAY}/${agent}`, key: KEY } }));
      const config = JSON.stringify([command.env, command.files]);
      expect(config, agent).to.include(KEY);
      expect(JSON.stringify(command.argv), agent).to.not.include(KEY);
      if (agent !== 'agent_3') expect(JSON.stringify([command.argv, config]), agent).to.include(`${GATEWAY}/${agent}`);
    }
  });

  it('writes agent_2’s provider, instructions and MCP servers into its config.toml', () => {
    const command = adapterFor('agent_2').command(
      request({
        gateway: { baseUrl: `${GATEWAY}/agent_2`, key: KEY },
        settings: {
          systemPrompt: 'Say "hi"\nfirst',
          mcpServers: {
            echo: { transport: 'stdio', command: 'node', args: ['/srv/echo.js'], env: { A: '1' } },
            'remote.one': { transport: 'http', url: 'https://mcp.example/mcp', headers: { Authorization: 'Bearer t' } },
          },
        },
      }),
    );
    expect(command.files.map((f) => f.path)).to.deep.equal(['~/.codex/config.toml']);
    const config = command.files[0]!.content;
    expect(config).to.include('model_provider = "hangar"');
    expect(config).to.include('developer_instructions = "Say \\"hi\\"\\nfirst"');
    expect(config).to.include(`[model_providers.hangar]\nname = "Hangar"\nbase_url = "${GATEWAY}/agent_2/v1"\nenv_key = "HANGAR_AGENT_KEY"\nwire_api = "responses"`);
    expect(config).to.include('[mcp_servers."echo"]\ncommand = "node"\nargs = ["/srv/echo.js"]\nenv = {"A" = "1"}');
    expect(config).to.include('[mcp_servers."remote.one"]\nurl = "https://mcp.example/mcp"\nhttp_headers = {"Authorization" = "Bearer t"}');
    expect(config).to.not.include(KEY);
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
