import { expect } from 'chai';
import { shellCall } from '../../support/modelServer';
import { agentOrg, firstTurn, historyTypes, inWorkspace, useRealAgents } from './support';

describe('agent_1: Claude Code in a workspace, through the AI gateway', function () {
  this.timeout(300_000);
  let rig: Awaited<ReturnType<typeof useRealAgents>>;
  before(async () => {
    rig = await useRealAgents();
  });
  after(async () => {
    await rig?.stop();
  });

  it('runs its Bash tool in the checkout and commits', async () => {
    const { org, env } = await agentOrg('agent_1');
    rig.models.script((call) => {
      if (!call.shellTool) return 'ok';
      if (call.toolResults.length === 0) return { toolCall: shellCall(call, 'echo hello > hello.txt && git add hello.txt && git commit -qm "add hello"') };
      return 'Done.';
    });
    const { id, status } = await firstTurn(org.org_api_key, { name: 'a1', environment_id: env.id, coding_agent: 'agent_1', message: 'Add hello.txt and commit it.' });
    console.log(JSON.stringify(status), JSON.stringify(rig.models.calls.map((c) => [c.path, c.status, c.call?.tools?.length, c.outcome])));
    console.log(await historyTypes(id));
    console.log(await inWorkspace(id, 'cd ~/workspaces/app && git log --format=%s'));
    expect(status.status).to.equal('completed');
  });
});
