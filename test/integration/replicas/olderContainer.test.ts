/**
 * A workspace whose container was made from a sandbox image older than the turn supervisor (a
 * workspace lives on across Hangar upgrades in its own container): its next turn puts the
 * supervisor in from the current image and runs.
 */
import { expect } from 'chai';
import { createDocker } from '../../../src/sandbox';
import { TURN_SUPERVISOR_PATH } from '../../../src/sandbox/workspace/turnSupervisor';
import { workspaceName } from '../../../src/sandbox/workspace';
import { harness } from '../../support/harness';
import { as, newOrg, request } from '../../support/http';
import { until } from '../../support/wait';

const V = { 'X-Api-Version': '2026-05-17' };

/** Runs a command as root in the container; its exit code. */
async function asRoot(replicaId: string, cmd: string): Promise<number> {
  const exec = await createDocker().getContainer(workspaceName(replicaId)).exec({ Cmd: ['sh', '-c', cmd], User: '0', AttachStdout: true, AttachStderr: true });
  const stream = await exec.start({});
  await new Promise((resolve) => {
    stream.on('data', () => undefined);
    stream.on('end', resolve);
  });
  return (await exec.inspect()).ExitCode ?? -1;
}

describe('replicas: a workspace container older than the turn supervisor', function () {
  this.timeout(240_000);

  it('gets the supervisor from the current image at its next turn, which completes', async () => {
    const { db } = harness().database;
    const org = await newOrg();
    const created = await request('POST', '/v1/replica', { key: org.org_api_key, headers: V, body: { name: 'older', coding_agent: 'agent_1', message: 'hello' } });
    expect(created.status).to.equal(201);
    const id = created.body.replica.id as string;
    const ended = (messageId?: string) =>
      until('the turn to end', async () => {
        const row = (await db('replica_messages').where(messageId ? { id: messageId } : { replica_id: id }).first('status', 'error')) as { status: string; error: string | null } | undefined;
        return row && !['queued', 'running'].includes(row.status) && row;
      }, 120_000, 250);
    expect((await ended()).status).to.equal('completed');

    // As a container made before the supervisor was in the image.
    expect(await asRoot(id, `rm ${TURN_SUPERVISOR_PATH} && ! command -v hangar-turn`)).to.equal(0);
    const sent = await as(org.org_api_key).post(`/v1/replica/${id}/messages`, { message: 'after the upgrade' });
    expect(sent.status, JSON.stringify(sent.body)).to.be.oneOf([200, 201, 202]);
    const next = await ended(sent.body.message_id);
    expect(next, JSON.stringify(next)).to.include({ status: 'completed' });
    expect(await asRoot(id, `test -x ${TURN_SUPERVISOR_PATH} && [ "$(stat -c %u ${TURN_SUPERVISOR_PATH})" = 0 ]`), 'the supervisor is back, owned by root').to.equal(0);
    expect((await as(org.org_api_key).delete(`/v1/replica/${id}`)).status).to.equal(200);
  });
});
