/**
 * Skills in warm workspaces, on a Hangar of its own whose pools keep one workspace and whose
 * GitHub is the shared fake: a warm build installs the environment's skills, the replica that
 * claims it reports them, and after a skill is added no replica gets a workspace without it.
 */
import { expect } from 'chai';
import { workspaceName } from '../../../src/sandbox/workspace';
import { execInContainer } from '../../support/containerExec';
import { fakeGithub, startHarness, type Harness } from '../../support/harness';
import { until } from '../../support/wait';

describe('warm pools: skills in warm workspaces', function () {
  this.timeout(300_000);
  let h: Harness;

  before(async function () {
    this.timeout(120_000);
    h = await startHarness({ HANGAR_WARM_POOL_SIZE: '1', HANGAR_GITHUB_API_URL: fakeGithub().url });
  });
  after(async function () {
    this.timeout(120_000);
    await h?.close();
  });

  it('builds warm workspaces with the skills, hands them on at claim, and never hands out one that lacks a skill', async () => {
    const org = await h.admin.createOrganization({ name: 'pool-skills', adminEmail: 'pool-skills@example.com' });
    const call = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(h.baseUrl + path, {
        method,
        headers: { authorization: `Bearer ${org.org_api_key}`, 'x-api-version': '2026-05-17', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : null };
    };
    const owner = `pool-skills-${org.organization_id.slice(0, 8)}`;
    fakeGithub().contents.put(`${owner}/kit/lint`, { 'SKILL.md': 'lint skill\n' });
    fakeGithub().contents.put(`${owner}/kit/docs`, { 'SKILL.md': 'docs skill\n', 'templates/adr.md': '# ADR\n' });

    const env = (await call('POST', '/v1/environments', { name: 'pooled-skills' })).body.environment;
    const base = `/v1/environments/${env.id}`;
    expect((await call('POST', `${base}/skills`, { name: 'Lint', slug: 'lint', source: `github:${owner}/kit/lint` })).status).to.equal(201);
    const configId: string = (await call('PUT', `${base}/warm-pools`, { enabled: true })).body.warm_pool.id;
    // The pool's record as last read: what a wait that runs out reports.
    let lastPool: unknown;
    const pool = async () => (lastPool = (await call('GET', `${base}/warm-hooks`)).body.warm_pool);
    await until('a ready warm workspace', async () => (await pool()).ready_count === 1, 180_000, 250, () => lastPool);
    const ready = (await call('GET', `/v1/warm-pools/${configId}/workspaces`)).body.workspaces.find((w: { status: string }) => w.status === 'ready');
    expect(await execInContainer(ready.sandbox_id, 'cat ~/.codex/skills/lint/SKILL.md')).to.equal('lint skill\n');

    const replicaOf = async (name: string) => {
      const id: string = (await call('POST', '/v1/replica', { name, environment_id: env.id, message: 'hello' })).body.replica.id;
      await until(`${name} to be active`, async () => (await h.database.db('replicas').where({ id }).first())?.status === 'active', 120_000);
      return { id, row: await h.database.db('replicas').where({ id }).first() };
    };

    // The claim hands the warm workspace's skills to the replica's record.
    const first = await replicaOf('claims-warm');
    expect(first.row.workspace_key).to.equal(ready.id);
    expect((await call('GET', `/v1/replica/${first.id}?include=environment`)).body.replica.environment.skills_installed).to.deep.equal(['lint']);

    // The pool refills with the one skill; then a new skill makes that entry unclaimable:
    // whichever workspace the next replica gets has both.
    await until('the pool to refill', async () => (await pool()).ready_count === 1, 180_000, 250, () => lastPool);
    const refill = (await call('GET', `/v1/warm-pools/${configId}/workspaces`)).body.workspaces.find((w: { status: string }) => w.status === 'ready');
    expect(await execInContainer(refill.sandbox_id, 'ls ~/.claude/skills')).to.equal('lint\n');
    expect((await call('POST', `${base}/skills`, { name: 'Docs', slug: 'docs', source: `github:${owner}/kit/docs` })).status).to.equal(201);
    const second = await replicaOf('after-new-skill');
    expect(second.row.workspace_key).not.to.equal(refill.id);
    const container = workspaceName(second.row.workspace_key ?? second.id);
    expect(await execInContainer(container, 'cat ~/.claude/skills/docs/SKILL.md ~/.pi/agent/skills/docs/templates/adr.md ~/.claude/skills/lint/SKILL.md')).to.equal('docs skill\n# ADR\nlint skill\n');
    expect((await call('GET', `/v1/replica/${second.id}?include=environment`)).body.replica.environment.skills_installed).to.deep.equal(['docs', 'lint']);

    expect((await call('PUT', `${base}/warm-pools`, { enabled: false })).status).to.equal(200);
    for (const { id } of [first, second]) await call('DELETE', `/v1/replica/${id}`);
  });
});
