import { randomUUID } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import { expect } from 'chai';
import { nextFireAt, parseCron } from '../../../src/domain/cron';
import { harness } from '../../support/harness';
import { as, errorOf, request } from '../../support/http';
import { until } from '../../support/wait';
import { automationOrg, CUSTOM, cron, MR_OPENED, PR_OPENED, RECORD_FIELDS } from './support';

const within = (actual: string, expected: Date, ms = 60_000) =>
  expect(Math.abs(new Date(actual).getTime() - expected.getTime())).to.be.at.most(ms);

describe('automations API', () => {
  it('creates an automation: 201 {automation} with every record field, defaults filled in', async () => {
    const { org, api, env, body } = await automationOrg();
    const before = new Date();
    const res = await api.post('/v1/automations', body());
    expect(res.status).to.equal(201);
    const a = res.body.automation;
    expect(Object.keys(a).sort()).to.deep.equal([...RECORD_FIELDS].sort());
    expect(a).to.include({
      organization_id: org.organization_id,
      name: 'Nightly review',
      description: null,
      prompt: 'Review the open pull requests.',
      debounce_seconds: null,
      environment_id: env.id,
      enabled: true,
      webhook_token: null,
      cron_expression: '0 3 * * *',
      cron_timezone: 'Europe/Paris',
      user_id: null,
      created_by: null,
      workspace_auto_stop_minutes: null,
      model: null,
      plan_mode: false,
      goal_mode: null,
      fast_mode: null,
      workspace_lifecycle_policy: 'default',
      workspace_size: 'small',
      agent_provider: null,
      thinking_level: null,
    });
    expect(a.vcs_check_names).to.deep.equal([]);
    expect(a.triggers).to.deep.equal([{ type: 'cron', config: { schedule: '0 3 * * *', timezone: 'Europe/Paris' } }]);
    expect(a.config).to.deep.equal({
      capabilities: { pr_followups: false, read_only_contents: false },
      preferences: { keep_open_on_pr_merge: false, keep_open_on_pr_close: false },
    });
    within(a.cron_next_fire_at, nextFireAt(parseCron('0 3 * * *'), 'Europe/Paris', before));
    expect(new Date(a.cron_next_fire_at).getTime()).to.be.greaterThan(before.getTime());
  });

  it('stores every optional field sent on create', async () => {
    const { org, body } = await automationOrg();
    const api = as(org.admin.personal_api_key);
    const res = await api.post(
      '/v1/automations',
      body({
        description: 'Checks PRs',
        triggers: [PR_OPENED, MR_OPENED],
        debounce_seconds: 30,
        vcs_check_names: ['hangar/review'],
        enabled: false,
        workspace_lifecycle_policy: 'archive_when_done',
        workspace_auto_stop_minutes: 15,
        workspace_size: 'large',
        config: { capabilities: { pr_followups: true } },
        agent_provider: 'agent_2',
        model: 'some-model',
        thinking_level: 'ultra',
        plan_mode: true,
        goal_mode: true,
        fast_mode: false,
      }),
    );
    expect(res.status).to.equal(201);
    const a = res.body.automation;
    expect(a).to.include({
      description: 'Checks PRs',
      debounce_seconds: 30,
      enabled: false,
      workspace_lifecycle_policy: 'archive_when_done',
      workspace_auto_stop_minutes: 15,
      workspace_size: 'large',
      agent_provider: 'agent_2',
      model: 'some-model',
      thinking_level: 'ultra',
      plan_mode: true,
      goal_mode: true,
      fast_mode: false,
      created_by: org.admin.user_id,
      user_id: null,
      cron_expression: null,
      cron_timezone: null,
      cron_next_fire_at: null,
    });
    expect(a.vcs_check_names).to.deep.equal(['hangar/review']);
    expect(a.triggers).to.deep.equal([
      { type: 'github', config: { event: 'pull_request.opened', repository_ids: [], excluded_actors: [], group_pr_events: false } },
      { type: 'gitlab', config: { event: 'merge_request.opened', repository_ids: [], excluded_actors: [], group_pr_events: false } },
    ]);
    expect(a.config.capabilities).to.deep.equal({ pr_followups: true, read_only_contents: false });
    expect(a.config.preferences).to.deep.equal({ keep_open_on_pr_merge: false, keep_open_on_pr_close: false });
  });

  it('reads one automation and lists them in the page envelope', async () => {
    const { api, body } = await automationOrg();
    const a = (await api.post('/v1/automations', body())).body.automation;
    const read = await api.get(`/v1/automations/${a.id}`);
    expect(read.status).to.equal(200);
    expect(read.body).to.deep.equal({ automation: a });
    const list = await api.get('/v1/automations');
    expect(list.status).to.equal(200);
    expect(list.body).to.deep.equal({ automations: [a], total: 1, page: 1, limit: 20, totalPages: 1 });
  });

  describe('list filters', () => {
    it('pages (limit default 20, max 100) and filters by enabled, search and trigger_type', async () => {
      const { api, body } = await automationOrg();
      const nightly = (await api.post('/v1/automations', body({ name: 'Nightly Review' }))).body.automation;
      const prs = (await api.post('/v1/automations', body({ name: 'PR triage', triggers: [PR_OPENED], enabled: false }))).body.automation;
      const hook = (await api.post('/v1/automations', body({ name: 'Deploy hook', triggers: [CUSTOM] }))).body.automation;
      const mr = (await api.post('/v1/automations', body({ name: 'MR triage', triggers: [MR_OPENED] }))).body.automation;
      const ids = async (q: string) => ((await api.get(`/v1/automations${q}`)).body.automations as Array<{ id: string }>).map((x) => x.id);

      expect(await ids('')).to.have.members([nightly.id, prs.id, hook.id, mr.id]);
      expect(await ids('?enabled=false')).to.deep.equal([prs.id]);
      expect(await ids('?enabled=true')).to.have.members([nightly.id, hook.id, mr.id]);
      expect(await ids('?search=%20%20review%20')).to.deep.equal([nightly.id]);
      expect(await ids('?search=TRIAGE')).to.have.members([prs.id, mr.id]);
      expect(await ids('?search=%25')).to.deep.equal([]);
      expect(await ids('?trigger_type=cron')).to.deep.equal([nightly.id]);
      expect(await ids('?trigger_type=github')).to.deep.equal([prs.id]);
      expect(await ids('?trigger_type=gitlab')).to.deep.equal([mr.id]);
      expect(await ids('?trigger_type=custom')).to.deep.equal([hook.id]);
      expect(await ids('?trigger_type=slack')).to.deep.equal([]);
      expect(await ids('?trigger_type=sentry')).to.deep.equal([]);
      expect(await ids('?trigger_type=all')).to.have.length(4);

      const paged = await api.get('/v1/automations?limit=3&page=2');
      expect(paged.body).to.include({ total: 4, page: 2, limit: 3, totalPages: 2 });
      expect(paged.body.automations).to.have.length(1);
    });

    it('rejects an unknown trigger_type, a limit over 100 and an unknown scope with 400', async () => {
      const { api } = await automationOrg();
      const bad = await api.get('/v1/automations?trigger_type=jira');
      expect(bad.status).to.equal(400);
      expect(errorOf(bad).details).to.match(/query\.trigger_type: must be one of all, cron, github, gitlab, slack, sentry, custom/);
      const big = await api.get('/v1/automations?limit=101');
      expect(big.status).to.equal(400);
      expect(errorOf(big).details).to.match(/query\.limit/);
      expect((await api.get('/v1/automations?scope=team')).status).to.equal(400);
    });

    it('scope: org (default) lists org automations, user the caller\'s personal ones, all both', async () => {
      const { org, api, body } = await automationOrg();
      const me = as(org.admin.personal_api_key);
      const team = (await api.post('/v1/automations', body({ name: 'team' }))).body.automation;
      const mine = (await me.post('/v1/automations', body({ name: 'mine', scope: 'user' }))).body.automation;
      expect(mine.user_id).to.equal(org.admin.user_id);
      const member = await harness().admin.createUser({ organizationId: org.organization_id, email: 'other@example.com' });
      const theirs = (await as(member.personal_api_key).post('/v1/automations', body({ name: 'theirs', scope: 'user' }))).body.automation;
      const ids = async (key: string, q: string) => ((await as(key).get(`/v1/automations${q}`)).body.automations as Array<{ id: string }>).map((x) => x.id);
      expect(await ids(org.admin.personal_api_key, '')).to.deep.equal([team.id]);
      expect(await ids(org.admin.personal_api_key, '?scope=user')).to.deep.equal([mine.id]);
      expect(await ids(org.admin.personal_api_key, '?scope=all')).to.have.members([team.id, mine.id]);
      expect(await ids(member.personal_api_key, '?scope=user')).to.deep.equal([theirs.id]);
      expect(await ids(org.org_api_key, '?scope=all')).to.deep.equal([team.id]);
      const orgUser = await api.get('/v1/automations?scope=user');
      expect(orgUser.status).to.equal(403);
      errorOf(orgUser);
    });
  });

  describe('PATCH', () => {
    it('changes only the fields sent and moves updated_at', async () => {
      const { api, body } = await automationOrg();
      const a = (await api.post('/v1/automations', body({ description: 'first', debounce_seconds: 10 }))).body.automation;
      await new Promise((r) => setTimeout(r, 20));
      const res = await api.patch(`/v1/automations/${a.id}`, { name: 'Renamed' });
      expect(res.status).to.equal(200);
      const b = res.body.automation;
      expect(new Date(b.updated_at).getTime()).to.be.greaterThan(new Date(a.updated_at).getTime());
      const { name: _n, updated_at: _u, cron_next_fire_at: _c, ...restA } = a;
      const { name, updated_at: _u2, cron_next_fire_at: _c2, ...restB } = b;
      expect(name).to.equal('Renamed');
      expect(restB).to.deep.equal(restA);
      expect((await api.get(`/v1/automations/${a.id}`)).body.automation).to.deep.equal(b);
    });

    it('enables and disables; description and nullable fields can be cleared', async () => {
      const { api, body } = await automationOrg();
      const a = (await api.post('/v1/automations', body({ description: 'x', debounce_seconds: 5, workspace_auto_stop_minutes: 30 }))).body.automation;
      const off = (await api.patch(`/v1/automations/${a.id}`, { enabled: false })).body.automation;
      expect(off.enabled).to.equal(false);
      const on = (await api.patch(`/v1/automations/${a.id}`, { enabled: true, description: null, debounce_seconds: null, workspace_auto_stop_minutes: null })).body.automation;
      expect(on).to.include({ enabled: true, description: null, debounce_seconds: null, workspace_auto_stop_minutes: null });
    });

    it('replaces the whole trigger list and recomputes the cron mirror and cron_next_fire_at', async () => {
      const { api, body } = await automationOrg();
      const a = (await api.post('/v1/automations', body())).body.automation;
      const before = new Date();
      // Minutes 1, 6, … never meet the default '0 3 * * *' (Paris), so the two next fires always differ.
      const moved = (await api.patch(`/v1/automations/${a.id}`, { triggers: [cron('1-59/5 * * * *', 'America/New_York'), PR_OPENED] })).body.automation;
      expect(moved.triggers).to.have.length(2);
      expect(moved).to.include({ cron_expression: '1-59/5 * * * *', cron_timezone: 'America/New_York' });
      within(moved.cron_next_fire_at, nextFireAt(parseCron('1-59/5 * * * *'), 'America/New_York', before));
      expect(moved.cron_next_fire_at).to.not.equal(a.cron_next_fire_at);

      const tz = (await api.patch(`/v1/automations/${a.id}`, { triggers: [cron('0 9 * * 1', 'Asia/Tokyo')] })).body.automation;
      within(tz.cron_next_fire_at, nextFireAt(parseCron('0 9 * * 1'), 'Asia/Tokyo', new Date()));
      expect(tz.triggers).to.deep.equal([{ type: 'cron', config: { schedule: '0 9 * * 1', timezone: 'Asia/Tokyo' } }]);

      const none = (await api.patch(`/v1/automations/${a.id}`, { triggers: [PR_OPENED] })).body.automation;
      expect(none).to.include({ cron_expression: null, cron_timezone: null, cron_next_fire_at: null });
    });

    it('replaces config; a missing capabilities or preferences object defaults to disabled flags', async () => {
      const { api, body } = await automationOrg();
      const a = (await api.post('/v1/automations', body({ config: { capabilities: { pr_followups: true, read_only_contents: true } } }))).body.automation;
      const b = (await api.patch(`/v1/automations/${a.id}`, { config: { preferences: { keep_open_on_pr_merge: true } } })).body.automation;
      expect(b.config).to.deep.equal({
        capabilities: { pr_followups: false, read_only_contents: false },
        preferences: { keep_open_on_pr_merge: true, keep_open_on_pr_close: false },
      });
      const c = (await api.patch(`/v1/automations/${a.id}`, { config: {} })).body.automation;
      expect(c.config.preferences.keep_open_on_pr_merge).to.equal(false);
    });

    it('an empty body is 400', async () => {
      const { api, body } = await automationOrg();
      const a = (await api.post('/v1/automations', body())).body.automation;
      const res = await api.patch(`/v1/automations/${a.id}`, {});
      expect(res.status).to.equal(400);
      errorOf(res);
    });
  });

  describe('webhook token', () => {
    it('exists only while there is a custom trigger, is stored hashed and sealed, and is reissued when re-added', async () => {
      const { api, body } = await automationOrg();
      const a = (await api.post('/v1/automations', body({ triggers: [CUSTOM] }))).body.automation;
      expect(a.webhook_token).to.match(/^hgr_whk_[A-Za-z0-9_-]{40,}$/);
      const row = await harness().database.db('automations').where({ id: a.id }).first();
      expect(row.webhook_token_hash).to.match(/^[0-9a-f]{64}$/);
      expect(row.webhook_token_sealed).to.not.include(a.webhook_token);
      // Unchanged by an unrelated PATCH and by re-sending the custom trigger.
      expect((await api.patch(`/v1/automations/${a.id}`, { name: 'n' })).body.automation.webhook_token).to.equal(a.webhook_token);
      expect((await api.patch(`/v1/automations/${a.id}`, { triggers: [CUSTOM, PR_OPENED] })).body.automation.webhook_token).to.equal(a.webhook_token);
      const removed = (await api.patch(`/v1/automations/${a.id}`, { triggers: [PR_OPENED] })).body.automation;
      expect(removed.webhook_token).to.equal(null);
      expect((await harness().database.db('automations').where({ id: a.id }).first()).webhook_token_hash).to.equal(null);
      const readded = (await api.patch(`/v1/automations/${a.id}`, { triggers: [CUSTOM] })).body.automation;
      expect(readded.webhook_token).to.be.a('string').and.not.equal(a.webhook_token);
    });
  });

  describe('DELETE', () => {
    it('answers {success: true} at once, then stops its workflows and deletes its whole history', async () => {
      const { org, api, body } = await automationOrg();
      // A cron loop is running for it, and a custom event waits in an open debounce window.
      const a = (await api.post('/v1/automations', body({ triggers: [cron('0 3 * * *'), CUSTOM], debounce_seconds: 3600 }))).body.automation;
      const other = (await api.post('/v1/automations', body({ name: 'kept' }))).body.automation;
      const db = harness().database.db;
      for (const automation of [a, other]) {
        await db.batchInsert(
          'automation_executions',
          Array.from({ length: automation === a ? 12_000 : 1 }, () => ({
            id: randomUUID(),
            automation_id: automation.id,
            organization_id: org.organization_id,
            trigger_payload: JSON.stringify({ n: 1 }),
            status: 'completed',
            config: JSON.stringify({}),
          })),
          2000,
        );
      }
      expect((await request('POST', `/v1/automations/webhook/${a.webhook_token}`, { body: { event: 1 } })).status).to.equal(202);
      const connection = await Connection.connect({ address: harness().temporal.address });
      const workflows = new Client({ connection }).workflow;
      const status = async (id: string) => (await workflows.getHandle(id).describe()).status.name;
      // Running and past their first read, asleep on a timer: a workflow still reading when the
      // automation is deleted would see it gone and end by itself, leaving nothing to stop.
      const asleep = async (id: string) =>
        (await status(id)) === 'RUNNING' && !!(await workflows.getHandle(id).fetchHistory()).events?.some((e) => e.timerStartedEventAttributes);
      try {
        await until('the schedule loop and the debounce window to sleep on their timers', async () =>
          (await asleep(`automation/${a.id}`)) && (await asleep(`debounce/${a.id}/custom/1`)));

        const res = await api.delete(`/v1/automations/${a.id}`);
        expect(res.status).to.equal(200);
        expect(res.body).to.deep.equal({ success: true });
        expect((await api.get(`/v1/automations/${a.id}`)).status).to.equal(404);
        expect((await api.get('/v1/automations')).body.automations.map((x: { id: string }) => x.id)).to.deep.equal([other.id]);
        expect((await request('POST', `/v1/automations/webhook/${a.webhook_token}`, { body: {} })).status).to.equal(404);
        expect((await api.delete(`/v1/automations/${a.id}`)).status).to.equal(404);

        const result = await workflows.getHandle(`cleanup/automation/${a.id}`).result();
        expect(result).to.deep.equal({ executionsDeleted: 12_000, workflowsStopped: 2 });
        expect(await status(`automation/${a.id}`)).to.equal('TERMINATED');
        expect(await status(`debounce/${a.id}/custom/1`)).to.equal('TERMINATED');
        for (const table of ['automation_executions', 'automation_events', 'automation_debounce_windows']) {
          expect(Number((await db(table).where({ automation_id: a.id }).count<{ count: string }[]>({ count: '*' }))[0]!.count), table).to.equal(0);
        }
        expect(Number((await db('automation_executions').where({ automation_id: other.id }).count<{ count: string }[]>({ count: '*' }))[0]!.count)).to.equal(1);
      } finally {
        await connection.close();
      }
    });
  });

  describe('access', () => {
    it('401 without or with a bad key on every operation', async () => {
      const { api, body } = await automationOrg();
      const a = (await api.post('/v1/automations', body())).body.automation;
      for (const [method, path] of [
        ['GET', '/v1/automations'],
        ['POST', '/v1/automations'],
        ['GET', `/v1/automations/${a.id}`],
        ['PATCH', `/v1/automations/${a.id}`],
        ['DELETE', `/v1/automations/${a.id}`],
      ] as const) {
        const none = await request(method, path, method === 'PATCH' || method === 'POST' ? { body: { name: 'x' } } : {});
        expect(none.status, `${method} ${path}`).to.equal(401);
        errorOf(none);
        const bad = await request(method, path, { key: 'hgr_org_nope' });
        expect(bad.status, `${method} ${path}`).to.equal(401);
      }
    });

    it('another organization\'s automation is 404 on read, PATCH and DELETE', async () => {
      const a = await automationOrg();
      const b = await automationOrg();
      const auto = (await a.api.post('/v1/automations', a.body())).body.automation;
      for (const res of [
        await b.api.get(`/v1/automations/${auto.id}`),
        await b.api.patch(`/v1/automations/${auto.id}`, { name: 'mine' }),
        await b.api.delete(`/v1/automations/${auto.id}`),
        await b.api.get(`/v1/automations/${randomUUID()}`),
      ]) {
        expect(res.status).to.equal(404);
        expect(errorOf(res).error).to.equal('Automation not found');
      }
      expect((await b.api.get('/v1/automations/not-a-uuid')).status).to.equal(400);
    });

    it('personal automations: the owner manages them; an org key gets 403; another user gets 404', async () => {
      const { org, api, body } = await automationOrg();
      const member = await harness().admin.createUser({ organizationId: org.organization_id, email: 'member@example.com' });
      const mine = as(member.personal_api_key);
      const created = await mine.post('/v1/automations', body({ scope: 'user' }));
      expect(created.status).to.equal(201);
      const a = created.body.automation;
      expect(a).to.include({ user_id: member.user_id, created_by: member.user_id });

      for (const res of [
        await api.get(`/v1/automations/${a.id}`),
        await api.patch(`/v1/automations/${a.id}`, { name: 'org' }),
        await api.delete(`/v1/automations/${a.id}`),
      ]) {
        expect(res.status).to.equal(403);
        expect(errorOf(res).error).to.match(/personal automations/);
      }
      const admin = as(org.admin.personal_api_key);
      for (const res of [
        await admin.get(`/v1/automations/${a.id}`),
        await admin.patch(`/v1/automations/${a.id}`, { name: 'admin' }),
        await admin.delete(`/v1/automations/${a.id}`),
      ]) {
        expect(res.status).to.equal(404);
      }
      expect((await mine.patch(`/v1/automations/${a.id}`, { name: 'still mine' })).body.automation.name).to.equal('still mine');
      expect((await mine.delete(`/v1/automations/${a.id}`)).body).to.deep.equal({ success: true });
    });

    it('a personal key (even a member) manages org automations', async () => {
      const { org, api, body } = await automationOrg();
      const member = await harness().admin.createUser({ organizationId: org.organization_id, email: 'member2@example.com' });
      const a = (await api.post('/v1/automations', body())).body.automation;
      const m = as(member.personal_api_key);
      expect((await m.patch(`/v1/automations/${a.id}`, { enabled: false })).status).to.equal(200);
      expect((await m.delete(`/v1/automations/${a.id}`)).status).to.equal(200);
    });

    it('an org key cannot create a personal automation (403)', async () => {
      const { api, body } = await automationOrg();
      const res = await api.post('/v1/automations', body({ scope: 'user' }));
      expect(res.status).to.equal(403);
      expect(errorOf(res).details).to.match(/scope=user/);
    });
  });

  describe('environment_id', () => {
    it('must be an environment of the same organization (404)', async () => {
      const { api, body } = await automationOrg();
      const other = await automationOrg();
      for (const environment_id of [other.env.id, randomUUID()]) {
        const res = await api.post('/v1/automations', body({ environment_id }));
        expect(res.status).to.equal(404);
        expect(errorOf(res)).to.include({ error: 'Environment not found' });
        expect(errorOf(res).details).to.match(/body\.environment_id/);
      }
      const a = (await api.post('/v1/automations', body())).body.automation;
      const patch = await api.patch(`/v1/automations/${a.id}`, { environment_id: other.env.id });
      expect(patch.status).to.equal(404);
      expect(errorOf(patch).details).to.match(/body\.environment_id/);
    });

    it('moves the automation to another environment of the organization, including Global', async () => {
      const { org, api, body } = await automationOrg();
      const a = (await api.post('/v1/automations', body())).body.automation;
      const moved = await api.patch(`/v1/automations/${a.id}`, { environment_id: org.global_environment_id });
      expect(moved.status).to.equal(200);
      expect(moved.body.automation.environment_id).to.equal(org.global_environment_id);
    });

    it('a personal environment serves only personal automations of its owner', async () => {
      const { org, body } = await automationOrg();
      const me = as(org.admin.personal_api_key);
      const personalEnv = (await me.post('/v1/environments', { name: 'mine', scope: 'user' })).body.environment;
      const orgAutomation = await me.post('/v1/automations', body({ environment_id: personalEnv.id }));
      expect(orgAutomation.status).to.equal(400);
      expect(errorOf(orgAutomation).details).to.match(/body\.environment_id: a personal environment/);
      expect((await me.post('/v1/automations', body({ environment_id: personalEnv.id, scope: 'user' }))).status).to.equal(201);
      const member = await harness().admin.createUser({ organizationId: org.organization_id, email: 'm3@example.com' });
      const theirs = await as(member.personal_api_key).post('/v1/automations', body({ environment_id: personalEnv.id, scope: 'user' }));
      expect(theirs.status).to.equal(404);
      const orgKey = await as(org.org_api_key).post('/v1/automations', body({ environment_id: personalEnv.id }));
      expect(orgKey.status).to.equal(404);
    });

    it('DELETE /v1/environments/{id} is 409 while an automation references the environment', async () => {
      const { api, env, body } = await automationOrg();
      const a = (await api.post('/v1/automations', body())).body.automation;
      const blocked = await api.delete(`/v1/environments/${env.id}`);
      expect(blocked.status).to.equal(409);
      expect(errorOf(blocked).details).to.match(/1 automation\(s\) use this environment/);
      expect((await api.get(`/v1/environments/${env.id}`)).status).to.equal(200);
      expect((await api.delete(`/v1/automations/${a.id}`)).status).to.equal(200);
      expect((await api.delete(`/v1/environments/${env.id}`)).status).to.equal(200);
    });
  });

  describe('repository_ids', () => {
    it('must name repositories of the organization (404 otherwise)', async () => {
      const { org, api, body } = await automationOrg();
      const other = await automationOrg();
      const repo = await harness().admin.addRepository({ organizationId: org.organization_id, url: 'https://example.com/acme/web.git' });
      const foreign = await harness().admin.addRepository({ organizationId: other.org.organization_id, url: 'https://example.com/other/web.git' });
      const ok = await api.post('/v1/automations', body({ triggers: [{ type: 'github', config: { event: 'pull_request.opened', repository_ids: [repo.id], excluded_actors: ['dependabot[bot]'] } }] }));
      expect(ok.status).to.equal(201);
      expect(ok.body.automation.triggers[0].config).to.deep.equal({ event: 'pull_request.opened', repository_ids: [repo.id], excluded_actors: ['dependabot[bot]'], group_pr_events: false });
      const bad = await api.post('/v1/automations', body({ triggers: [{ type: 'gitlab', config: { event: 'merge_request.opened', repository_ids: [repo.id, foreign.id] } }] }));
      expect(bad.status).to.equal(404);
      expect(errorOf(bad)).to.deep.equal({
        error: 'Repository not found',
        details: `body.triggers.0.config.repository_ids: ${foreign.id} is not a repository of this organization`,
      });
    });
  });

  describe('model', () => {
    it('agent_3 models must be enabled for the organization', async () => {
      const { api, body } = await automationOrg();
      const ok = await api.post('/v1/automations', body({ agent_provider: 'agent_3', model: 'a1-large' }));
      expect(ok.status).to.equal(201);
      const bad = await api.post('/v1/automations', body({ agent_provider: 'agent_3', model: 'not-a-model' }));
      expect(bad.status).to.equal(400);
      expect(errorOf(bad).details).to.equal('body.model: not-a-model is not enabled for agent_3 in this organization');
      const patch = await api.patch(`/v1/automations/${ok.body.automation.id}`, { model: 'nope' });
      expect(patch.status).to.equal(400);
      expect(errorOf(patch).details).to.match(/body\.model: nope is not enabled/);
    });
  });
});
