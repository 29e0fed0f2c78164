import { expect } from 'chai';
import { createDocker } from '../../../src/sandbox';
import { harness } from '../../support/harness';
import { as, errorOf, newOrg, request } from '../../support/http';
import { until } from '../../support/wait';

const create = (key: string, body: Record<string, unknown>) => request('POST', '/v1/replica', { key, headers: { 'X-Api-Version': '2026-05-17' }, body });
const statusOf = async (id: string) => (await harness().database.db('replicas').where({ id }).first())?.status;

describe('replicas: lifecycle policies and failures', function () {
  this.timeout(180_000);

  it('ends in error with the provisioning failure in config when the repository cannot be cloned', async () => {
    const org = await newOrg();
    const api = as(org.org_api_key);
    const repo = await harness().admin.addRepository({ organizationId: org.organization_id, url: `file:///nonexistent/${org.organization_id}.git` });
    const env = (await api.post('/v1/environments', { name: 'broken', repository_id: repo.id })).body.environment;
    const id = (await create(org.org_api_key, { name: 'doomed', message: 'hi', environment_id: env.id })).body.replica.id;
    await until('error', async () => (await statusOf(id)) === 'error', 90_000);
    const details = (await api.get(`/v1/replica/${id}`)).body.replica;
    expect(details.status).to.equal('error');
    expect(details.config.provisioning_error.message).to.be.a('string').and.not.equal('');
    const message = await api.post(`/v1/replica/${id}/messages`, { message: 'still there?' });
    expect(message.status).to.equal(409);
    errorOf(message);
    expect((await api.post(`/v1/replica/${id}/sleep`)).status).to.equal(409);
    // Nothing of the failed attempt is left on the Docker engine.
    const docker = createDocker();
    expect(await docker.listContainers({ all: true, filters: { name: [`hangar-ws-${id}`] } })).to.have.length(0);
    await api.delete(`/v1/replica/${id}`);
  });

  it('sleeps when done under sleep_when_done, and archives when done under archive_when_done', async () => {
    const org = await newOrg();
    const sleeper = (await create(org.org_api_key, { name: 'sleeper', message: 'one turn', lifecycle_policy: 'sleep_when_done' })).body.replica.id;
    const archiver = (await create(org.org_api_key, { name: 'archiver', message: 'one turn', lifecycle_policy: 'archive_when_done' })).body.replica.id;
    await until('sleeping after its turn', async () => (await statusOf(sleeper)) === 'sleeping', 90_000);
    await until('archived after its turn', async () => (await statusOf(archiver)) === 'archived', 90_000);
    // The finished turn is recorded before the workspace went away.
    const done = await harness().database.db('replica_messages').whereIn('replica_id', [sleeper, archiver]).pluck('status');
    expect(done).to.deep.equal(['completed', 'completed']);
    // A message wakes it and runs.
    const sent = await as(org.org_api_key).post(`/v1/replica/${sleeper}/messages`, { message: 'wake up' });
    expect(sent.body.status).to.equal('waking');
    await until('the second turn', async () => (await harness().database.db('replica_messages').where({ replica_id: sleeper, status: 'completed' })).length === 2, 90_000);
    for (const id of [sleeper, archiver]) await as(org.org_api_key).delete(`/v1/replica/${id}`);
  });

  it('falls asleep after the inactivity timeout and keeps its volume', async () => {
    const org = await newOrg();
    const id = (await create(org.org_api_key, { name: 'idle', message: '!write kept.txt still-here' })).body.replica.id;
    await until('active', async () => (await statusOf(id)) === 'active', 60_000);
    const idleMs = harness().config.workspaceIdleMs;
    await until('asleep after inactivity', async () => (await statusOf(id)) === 'sleeping', idleMs + 60_000);
    const woke = await as(org.org_api_key).post(`/v1/replica/${id}/wake`);
    expect(woke.body).to.deep.equal({ success: true, waking: true });
    await until('awake', async () => (await statusOf(id)) === 'active', 60_000);
    const sent = await as(org.org_api_key).post(`/v1/replica/${id}/messages`, { message: '!run cat kept.txt' });
    await until('the file survived the sleep', async () => {
      // Only this turn's events: the first turn's own events mention the text too.
      const events = await harness().database.db('replica_agent_events').where({ replica_id: id, message_id: sent.body.message_id }).select('payload');
      return JSON.stringify(events).includes('still-here');
    }, 60_000);
    await as(org.org_api_key).delete(`/v1/replica/${id}`);
  });
});
