/**
 * The agent runs with the environment Hangar builds, not a login shell's: start-up files a
 * hook (or an earlier turn) wrote into the home directory do not reach it, the team's
 * variables do.
 */
import { expect } from 'chai';
import { as, newOrg, request } from '../../support/http';
import { until } from '../../support/wait';

const V = { 'X-Api-Version': '2026-05-17' };

describe('replicas: the agent process environment', function () {
  this.timeout(180_000);

  it("ignores the shell start-up files in the workspace's home and keeps the team's variables", async () => {
    const org = await newOrg();
    const api = as(org.org_api_key);
    const env = (await api.post('/v1/environments', { name: 'startup-files' })).body.environment;
    await api.post(`/v1/environments/${env.id}/variables`, { key: 'TEAM_VAR', value: 'from-team' });
    const hook = [
      `for f in ~/.profile ~/.bashrc ~/.bash_profile ~/.bash_login; do echo 'export FROM_STARTUP=yes' >> "$f"; done`,
      `echo 'FROM_STARTUP=yes' > ~/.hangar-env-probe`,
    ].join('\n');
    expect((await api.post(`/v1/environments/${env.id}/start-hooks/save`, { content: hook })).status).to.be.oneOf([200, 201]);

    const created = await request('POST', '/v1/replica', {
      key: org.org_api_key,
      headers: V,
      body: { name: 'env-probe', environment_id: env.id, coding_agent: 'agent_1', message: '!echo-env FROM_STARTUP\n!echo-env TEAM_VAR\n!run cat ~/.hangar-env-probe\n!run echo turn-$((40 + 2))-over' },
    });
    expect(created.status).to.equal(201);
    const replicaId: string = created.body.replica.id;
    const said = await until(
      'the agent to report its environment',
      async () => {
        const chats = (await api.get(`/v1/replica/${replicaId}/chats`)).body.chats;
        if (!chats?.length) return undefined;
        const text = JSON.stringify((await api.get(`/v1/replica/${replicaId}/history?chat_id=${chats[0].id}`)).body.events ?? []);
        // The last command's output (not in the prompt) says every line before it is in the history.
        return text.includes('turn-42-over') ? text : undefined;
      },
      120_000,
    );
    // The hook did run (its file is there), yet none of the start-up files reached the agent.
    expect(said).to.include('FROM_STARTUP=yes');
    expect(said).to.include('FROM_STARTUP=unset');
    expect(said).to.include('TEAM_VAR=set');
  });
});
