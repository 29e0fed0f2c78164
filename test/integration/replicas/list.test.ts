import { expect } from 'chai';
import { harness } from '../../support/harness';
import { as, errorOf, newOrg, request } from '../../support/http';

describe('replicas: listing', function () {
  this.timeout(120_000);

  it('pages newest first with the replica envelope, filters, and keeps personal replicas to their owner', async () => {
    const org = await newOrg();
    const member = await harness().admin.createUser({ organizationId: org.organization_id, email: 'lister@example.com' });
    const create = (key: string, name: string) => request('POST', '/v1/replica', { key, headers: { 'X-Api-Version': '2026-05-17' }, body: { name, message: 'hi' } });
    const ids: string[] = [];
    for (const name of ['one', 'two', 'three']) ids.push((await create(org.org_api_key, name)).body.replica.id);
    ids.push((await create(member.personal_api_key, 'mine')).body.replica.id);

    const page1 = (await as(org.org_api_key).get('/v1/replica?limit=2')).body;
    expect(page1).to.include({ total: 4, page: 1, limit: 2, total_pages: 2 });
    expect(page1.replicas.map((r: { name: string }) => r.name)).to.deep.equal(['mine', 'three']);
    const page2 = (await as(org.org_api_key).get('/v1/replica?limit=2&page=2')).body;
    expect(page2.replicas.map((r: { name: string }) => r.name)).to.deep.equal(['two', 'one']);
    expect(Object.keys(page2.replicas[0]).sort()).to.deep.equal(['created_at', 'id', 'last_activity_at', 'name', 'pull_requests', 'repositories', 'source', 'status']);
    expect((await as(org.org_api_key).get('/v1/replica')).body.limit).to.equal(10);

    const byUser = (await as(org.org_api_key).get(`/v1/replica?user_id=${member.user_id}`)).body;
    expect(byUser.replicas.map((r: { name: string }) => r.name)).to.deep.equal(['mine']);
    expect((await as(org.org_api_key).get('/v1/replica?source=automation')).body.total).to.equal(0);

    // Another member sees the organization's replicas but not someone else's personal one.
    const other = await harness().admin.createUser({ organizationId: org.organization_id, email: 'other@example.com' });
    const theirs = (await as(other.personal_api_key).get('/v1/replica')).body.replicas.map((r: { name: string }) => r.name);
    expect(theirs).to.not.include('mine');
    expect((await as(other.personal_api_key).get(`/v1/replica/${ids[3]}`)).status).to.equal(404);

    for (const query of ['limit=0', 'limit=101', 'page=0', 'status=running', 'source=carrier-pigeon', 'user_id=nope', 'colour=red']) {
      const res = await as(org.org_api_key).get(`/v1/replica?${query}`);
      expect(res.status, query).to.equal(400);
      errorOf(res);
    }
    for (const id of ids) await as(org.org_api_key).delete(`/v1/replica/${id}`);
  });
});
