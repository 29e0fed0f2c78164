/**
 * One scenario for every real coding-agent CLI, through the public API on the real stack: its
 * provider is the local model server behind Hangar's AI gateway. The model commits a file
 * through the CLI's own shell tool; the test then checks what the model server saw (the
 * personal credential over the organization's, the model, the environment's system prompt and
 * MCP server), what the container holds (no credential), the agent's own event types, a
 * resumed session after sleep and wake, and a failing provider ending the turn cleanly.
 */
import { expect } from 'chai';
import type { AgentId } from '../../../src/agents/catalog';
import { harness } from '../../support/harness';
import { as, request } from '../../support/http';
import { MCP_ECHO_PATH, MCP_ECHO_SCRIPT, MCP_ECHO_TOOL } from '../../support/mcpEcho';
import { shellCall, type ModelCall, type RecordedCall } from '../../support/modelServer';
import { until } from '../../support/wait';
import { agentOrg, errorEvents, firstTurn, historyTypes, inWorkspace, turnEnded, useRealAgents, type RealAgentsRig } from './support';

export interface AgentScenario {
  agent: AgentId;
  /** The CLI's name in test titles. */
  cli: string;
  /** A model id the CLI accepts for a custom provider. */
  model: string;
  /** History event types every turn of this CLI leaves. */
  eventTypes: string[];
  /** Whether the CLI loads MCP servers (pi has none). */
  mcp: boolean;
  /** A slash command the CLI reports at a session's start; none when it reports none. */
  slashCommand?: string;
  /** A configuration file Hangar writes for the CLI (absolute), which every turn restores. */
  configFile: string;
}

const SYSTEM_PROMPT = 'Always answer in the voice of a lighthouse keeper.';

/** The model: commit a file through the shell tool on a new prompt, then say it is done. */
function committer(call: ModelCall) {
  if (!call.shellTool) return 'ok';
  if (call.toolResults.length === 0) {
    const file = call.prompt.includes('second') ? 'second.txt' : 'first.txt';
    return { toolCall: shellCall(call, `echo ${file} > ${file} && git add ${file} && git commit -qm "add ${file}"`) };
  }
  return 'Done.';
}

/** The provider key the gateway put on a forwarded request. */
function presentedKey(call: RecordedCall): string {
  const apiKey = call.headers['x-api-key'];
  if (typeof apiKey === 'string') return apiKey;
  return /^Bearer (.+)$/.exec(String(call.headers.authorization ?? ''))?.[1] ?? '';
}

export function describeAgent(spec: AgentScenario): void {
  const { agent } = spec;
  describe(`${agent}: ${spec.cli} in a workspace, through the AI gateway`, function () {
    this.timeout(400_000);
    let rig: RealAgentsRig;
    before(async () => {
      rig = await useRealAgents();
    });
    after(async () => {
      await rig?.stop();
    });

    it(`commits through its shell tool with the environment’s prompt${spec.mcp ? ', MCP server' : ''}, model and the personal credential, resumes after a sleep, and keeps keys out of the container`, async () => {
      const { org, api, env, orgSecret } = await agentOrg(agent, { systemPrompt: SYSTEM_PROMPT });
      const member = await harness().admin.createUser({ organizationId: org.organization_id, email: `member@${agent.replace('_', '-')}.test` });
      const personalSecret = `personal-${agent}-${member.user_id}`;
      expect((await as(member.personal_api_key).post(`/v1/user/credentials/${agent}`, { kind: 'api_key', secret: personalSecret })).status).to.equal(200);
      if (spec.mcp) {
        await api.post(`/v1/environments/${env.id}/files`, { path: '~/mcp/echo.js', content: MCP_ECHO_SCRIPT });
        await api.post(`/v1/environments/${env.id}/mcps`, { name: 'echo', transport: 'stdio', config: { command: 'node', args: [MCP_ECHO_PATH] } });
      }
      rig.models.script(committer);

      const { id, status } = await firstTurn(member.personal_api_key, {
        name: agent.replace('_', '-'),
        environment_id: env.id,
        coding_agent: agent,
        model: spec.model,
        message: 'Add first.txt and commit it.',
      });
      expect(status, JSON.stringify(status)).to.deep.include({ status: 'completed' });
      expect(await inWorkspace(id, 'cd ~/workspaces/app && git log --format=%s')).to.include('add first.txt');

      const turns = rig.models.modelCalls.filter((c) => c.shellTool);
      expect(turns.length).to.be.at.least(2);
      for (const call of turns) {
        expect(call.model).to.equal(spec.model);
        expect(call.system).to.include(SYSTEM_PROMPT);
        // Offered as a tool, or (Claude Code's tool search) named among the deferred tools.
        if (spec.mcp) expect(JSON.stringify(call.body), call.tools.join(', ')).to.include(MCP_ECHO_TOOL);
      }
      const presented = new Set(rig.models.calls.filter((c) => c.call).map(presentedKey));
      expect([...presented]).to.deep.equal([personalSecret]);

      // The agent's own event types, in history and on the events stream.
      const types = await historyTypes(id);
      for (const type of spec.eventTypes) expect(types, types.join(', ')).to.include(type);
      const history = (await as(member.personal_api_key).get(`/v1/replica/${id}/history`)).body;
      expect(history.events.map((e: { type: string }) => e.type)).to.include(spec.eventTypes[0]);
      const chatId = (await as(member.personal_api_key).get(`/v1/workspaces/${id}/chats`)).body.chats[0].id as string;
      const commands = (await as(member.personal_api_key).get(`/v1/replica/${id}/chats/${chatId}/slash-commands`)).body.commands as Array<{ command: string }>;
      if (spec.slashCommand) expect(commands.map((c) => c.command)).to.include(spec.slashCommand);
      else expect(commands).to.deep.equal([]);
      const deltas = await harness().database.db('replica_events').where({ replica_id: id, type: 'chat.turn.delta' }).count<{ n: string }[]>({ n: '*' });
      expect(Number(deltas[0]!.n)).to.be.greaterThan(0);

      // Nothing in the container holds a credential: not the environment, not a file in the home.
      const scan = await inWorkspace(id, `grep -rIl -e '${personalSecret}' -e '${orgSecret}' ~ /tmp 2>/dev/null; env | grep -c -e '${personalSecret}' -e '${orgSecret}'; true`);
      expect(scan.trim()).to.equal('0');

      // A configuration file changed in the workspace is put back before the next turn.
      await inWorkspace(id, `echo '# edited in the workspace' >> ${spec.configFile}`);

      // Asleep, then woken by the next message: the same session continues.
      expect((await as(member.personal_api_key).post(`/v1/replica/${id}/sleep`)).status).to.equal(200);
      await until('the workspace to sleep', async () => (await harness().database.db('replicas').where({ id }).first('status')).status === 'sleeping', 60_000);
      const before = rig.models.modelCalls.length;
      const sent = await as(member.personal_api_key).post(`/v1/replica/${id}/messages`, { message: 'Now add the second file.' });
      expect(sent.status).to.equal(200);
      const second = await turnEnded(id, 2);
      expect(second, JSON.stringify(second)).to.deep.include({ status: 'completed' });
      const resumed = rig.models.modelCalls.slice(before).filter((c) => c.shellTool);
      expect(resumed.length).to.be.at.least(1);
      expect(resumed[0]!.transcript).to.include('Add first.txt and commit it.');
      expect(await inWorkspace(id, 'cd ~/workspaces/app && git log --format=%s')).to.include('add second.txt');
      expect(await inWorkspace(id, `cat ${spec.configFile}`)).to.not.include('edited in the workspace');
    });

    it('ends a turn failed with the provider’s error and takes the next message', async () => {
      const { org, env } = await agentOrg(agent);
      rig.models.script((call) => (call.shellTool ? { error: { status: 401, message: 'invalid api key upstream' } } : 'ok'));
      const { id, status } = await firstTurn(org.org_api_key, { name: `${agent.replace('_', '-')}-fail`, environment_id: env.id, coding_agent: agent, model: spec.model, message: 'Try something.' });
      expect(status.status).to.equal('failed');
      expect(status.error).to.match(/401|invalid api key upstream|auth/i);
      const errors = await errorEvents(id);
      expect(errors.map((e) => e.code)).to.satisfy((codes: string[]) => codes.includes('agent_failed') || codes.includes('provider_refused'));
      expect(errors[0]!.agent).to.equal(agent);
      const chats = (await as(org.org_api_key).get(`/v1/replica/${id}`)).body.replica.chats;
      expect(chats.every((c: { processing: boolean }) => !c.processing)).to.equal(true);

      rig.models.script(committer);
      expect((await request('POST', `/v1/replica/${id}/messages`, { key: org.org_api_key, body: { message: 'Add first.txt and commit it.' } })).status).to.equal(200);
      const next = await turnEnded(id, 2);
      expect(next, JSON.stringify(next)).to.deep.include({ status: 'completed' });
    });
  });
}
