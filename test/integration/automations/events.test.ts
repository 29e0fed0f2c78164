/**
 * Event triggers through the public HTTP API with real PostgreSQL, Temporal and Docker: the
 * custom webhook, the GitHub and GitLab receivers (signatures, delivery ids, routing), debounce
 * windows that turn a burst into one run with the latest payload, and checks reported to a
 * local server speaking GitHub's Checks API.
 */
import { createHash, randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { fakeGithub, harness } from '../../support/harness';
import { as, errorOf, newOrg, request } from '../../support/http';
import { until } from '../../support/wait';
import { connectGitlab, githubPullRequest, gitlabMergeRequest, sendGithub, sendGitlab, signGithub } from '../../support/codeHosting';
import { CUSTOM, MR_OPENED, PR_OPENED, PR_SYNC } from './support';

const db = () => harness().database.db;

async function globalEnv(organizationId: string): Promise<string> {
  return (await db()('environments').where({ organization_id: organizationId, is_global: true }).first('id')).id;
}

async function executionsOf(automationId: string) {
  return db()('automation_executions').where({ automation_id: automationId }).orderBy('triggered_at');
}

async function finished(id: string) {
  return until(`execution ${id} to finish`, async () => {
    const e = await db()('automation_executions').where({ id }).first();
    return e && (e.status === 'completed' || e.status === 'failed') ? e : undefined;
  }, 150_000, 250);
}

/** An organization with a GitHub repository connected (its url in GitHub's https form). */
async function orgWithRepository(name: string) {
  const org = await newOrg(name);
  const fullName = `acme-${randomUUID().slice(0, 8)}/${name}`;
  const repo = await harness().admin.addRepository({ organizationId: org.organization_id, url: `https://github.com/${fullName}` });
  return { org, api: as(org.org_api_key), env: await globalEnv(org.organization_id), fullName, repo };
}

describe('automation event triggers', function () {
  this.timeout(300_000);
  const cleanups: Array<() => Promise<unknown>> = [];
  after(async () => {
    for (const c of cleanups) await c();
  });

  describe('the custom webhook', () => {
    it('answers 202 and records the JSON body, or a non-JSON body as {raw}, as the payload of a run', async () => {
      const org = await newOrg('custom-hook');
      const api = as(org.org_api_key);
      const automation = (
        await api.post('/v1/automations', { name: 'Hook', prompt: 'Handle the event.', environment_id: await globalEnv(org.organization_id), triggers: [CUSTOM] })
      ).body.automation;
      cleanups.push(() => api.delete(`/v1/automations/${automation.id}`));
      expect(automation.webhook_token).to.be.a('string');

      const json = await request('POST', `/v1/automations/webhook/${automation.webhook_token}`, { body: { deploy: 'v1.2', ok: true } });
      expect(json.status, JSON.stringify(json.body)).to.equal(202);
      expect(json.body).to.deep.equal({ accepted: true });
      const text = await request('POST', `/v1/automations/webhook/${automation.webhook_token}`, { rawBody: 'plain text, not JSON', headers: { 'content-type': 'text/plain' } });
      expect(text.status).to.equal(202);
      const broken = await request('POST', `/v1/automations/webhook/${automation.webhook_token}`, { rawBody: '{"half": ', headers: { 'content-type': 'application/json' } });
      expect(broken.status).to.equal(202);
      // The token is the webhook's only credential: the access log keeps the path without it.
      const logged = harness().logs.filter((l) => l.includes('/v1/automations/webhook/'));
      expect(logged.length).to.be.greaterThan(0);
      expect(harness().logs.join('\n')).not.to.contain(automation.webhook_token);
      // Text PostgreSQL cannot store is refused, not stored.
      const nul = await request('POST', `/v1/automations/webhook/${automation.webhook_token}`, { rawBody: 'a\u0000b', headers: { 'content-type': 'text/plain' } });
      expect(nul.status).to.equal(400);
      expect(errorOf(nul).details).to.equal('body: must not contain NUL characters');
      const deep = await request('POST', `/v1/automations/webhook/${automation.webhook_token}`, { rawBody: `{"a":${'['.repeat(5000)}${']'.repeat(5000)}}`, headers: { 'content-type': 'application/json' } });
      expect(deep.status).to.equal(400);

      // Debounce is off: each event is its own run, recorded when the answer goes out.
      const rows = await executionsOf(automation.id);
      expect(rows.map((r) => r.trigger_payload)).to.have.deep.members([{ deploy: 'v1.2', ok: true }, { raw: 'plain text, not JSON' }, { raw: '{"half": ' }]);
      const done = [];
      for (const r of rows) done.push(await finished(r.id));
      for (const d of done) expect(d.status, d.error).to.equal('completed');
      const [first] = await db()('replica_messages').where({ replica_id: done[0].workspace_id }).orderBy('created_at');
      expect(first.content).to.include('## Trigger Payload');
    });

    it('answers the same 404 for an unknown token, a disabled automation and one without a custom trigger, and 413 over 256 KiB', async () => {
      const org = await newOrg('custom-hook-404');
      const api = as(org.org_api_key);
      const automation = (
        await api.post('/v1/automations', { name: 'Hook', prompt: 'x', environment_id: await globalEnv(org.organization_id), triggers: [CUSTOM], enabled: false })
      ).body.automation;
      cleanups.push(() => api.delete(`/v1/automations/${automation.id}`));
      const token = automation.webhook_token as string;

      const unknown = await request('POST', `/v1/automations/webhook/hgr_whk_${'x'.repeat(43)}`, { body: {} });
      expect(unknown.status).to.equal(404);
      const disabled = await request('POST', `/v1/automations/webhook/${token}`, { body: {} });
      expect(disabled.status).to.equal(404);
      expect(errorOf(disabled)).to.deep.equal(errorOf(unknown));

      const big = await request('POST', `/v1/automations/webhook/${token}`, { rawBody: 'x'.repeat(256 * 1024 + 1), headers: { 'content-type': 'text/plain' } });
      expect(big.status).to.equal(413);
      expect(errorOf(big).error).to.match(/too large/i);

      // Without the custom trigger the token is revoked: the same 404 even once enabled again.
      const patched = await api.patch(`/v1/automations/${automation.id}`, { enabled: true, triggers: [PR_OPENED] });
      expect(patched.status, JSON.stringify(patched.body)).to.equal(200);
      const noTrigger = await request('POST', `/v1/automations/webhook/${token}`, { body: {} });
      expect(noTrigger.status).to.equal(404);
      expect(errorOf(noTrigger)).to.deep.equal(errorOf(unknown));
      expect(await executionsOf(automation.id)).to.have.length(0);
    });
    it('fires once for retries with the same Idempotency-Key, refuses the key on another body, and refuses a malformed key', async () => {
      const org = await newOrg('custom-hook-idem');
      const api = as(org.org_api_key);
      const automation = (
        await api.post('/v1/automations', { name: 'Hook', prompt: 'x', environment_id: await globalEnv(org.organization_id), triggers: [CUSTOM] })
      ).body.automation;
      cleanups.push(() => api.delete(`/v1/automations/${automation.id}`));
      const path = `/v1/automations/webhook/${automation.webhook_token}`;
      const send = (body: unknown, key?: string) => request('POST', path, { body, headers: key === undefined ? {} : { 'idempotency-key': key } });

      // A client that lost the first answer retries, concurrently even: one run.
      const tries = await Promise.all([send({ deploy: 1 }, '"deploy-1"'), send({ deploy: 1 }, '"deploy-1"'), send({ deploy: 1 }, 'deploy-1')]);
      expect(tries.map((t) => t.status)).to.deep.equal([202, 202, 202]);
      expect(tries.map((t) => t.body)).to.deep.equal(Array(3).fill({ accepted: true }));
      expect(tries.filter((t) => t.headers.get('idempotent-replayed') === 'true')).to.have.length(2);
      // The same key on a different body is another request: refused, nothing recorded.
      const reused = await send({ deploy: 2 }, 'deploy-1');
      expect(reused.status).to.equal(422);
      expect(errorOf(reused).error).to.equal('Idempotency key reused');
      // Keys are per automation: another key fires again, and no key always fires.
      expect((await send({ deploy: 1 }, 'deploy-2')).status).to.equal(202);
      expect((await send({ deploy: 1 })).status).to.equal(202);
      for (const bad of ['"unterminated', 'with space', 'x'.repeat(256), '"\u00e9"', '""']) {
        const refused = await send({ deploy: 3 }, bad);
        expect(refused.status, bad).to.equal(400);
        expect(errorOf(refused).details).to.match(/^headers\.idempotency-key: /);
      }
      const rows = await executionsOf(automation.id);
      expect(rows.map((r) => r.trigger_payload)).to.deep.equal([{ deploy: 1 }, { deploy: 1 }, { deploy: 1 }]);
    });
  });

  describe('the code-hosting receivers', () => {
    it('answer 401 to a missing or wrong signature or token, and accept a signed delivery once', async () => {
      const { fullName } = await orgWithRepository('signatures');
      const body = githubPullRequest({ fullName, number: 1, action: 'opened' });
      for (const signature of [null, 'sha256=' + '0'.repeat(64), signGithub(JSON.stringify(body), 'another secret'), signGithub('{}'), 'md5=abc']) {
        const answer = await sendGithub('pull_request', body, { signature });
        expect(answer.status, `signature ${signature}`).to.equal(401);
        expect(errorOf(answer).error).to.match(/signature/i);
      }
      for (const token of [null, 'wrong', '']) {
        const answer = await sendGitlab(gitlabMergeRequest({ fullName, iid: 1 }), { token });
        expect(answer.status, `token ${token}`).to.equal(401);
        errorOf(answer);
      }

      const ping = await sendGithub('ping', { zen: 'Keep it simple.', hook_id: 1 });
      expect(ping.status).to.equal(202);
      expect(ping.body).to.include({ accepted: true, matched: 0 });

      const deliveryId = randomUUID();
      const first = await sendGithub('pull_request', body, { deliveryId });
      expect(first.status, JSON.stringify(first.body)).to.equal(202);
      expect(first.body).to.deep.include({ accepted: true, duplicate: false });
      const again = await sendGithub('pull_request', body, { deliveryId });
      expect(again.status).to.equal(202);
      expect(again.body).to.deep.include({ accepted: true, duplicate: true, matched: 0 });
      expect(await db()('code_hosting_deliveries').where({ provider: 'github', delivery_id: deliveryId })).to.have.length(1);

      const malformed = await request('POST', '/v1/webhooks/github', {
        rawBody: '{not json',
        headers: { 'content-type': 'application/json', 'x-github-event': 'pull_request', 'x-hub-signature-256': signGithub('{not json') },
      });
      expect(malformed.status).to.equal(400);
      errorOf(malformed);
    });

    it('answer a signed GitHub body replayed under a new delivery id as a duplicate, for as long as delivery ids are kept', async () => {
      const { api, env, fullName } = await orgWithRepository('replays');
      const automation = (await api.post('/v1/automations', { name: 'Replays', prompt: 'x', environment_id: env, triggers: [PR_OPENED], debounce_seconds: 3600 })).body.automation;
      cleanups.push(() => api.delete(`/v1/automations/${automation.id}`));
      const events = async () => (await db()('automation_events').where({ automation_id: automation.id })).length;
      const body = githubPullRequest({ fullName, number: 21, action: 'opened' });
      const original = randomUUID();

      const first = await sendGithub('pull_request', body, { deliveryId: original });
      expect(first.body).to.deep.include({ accepted: true, matched: 1, duplicate: false });
      // Captured and sent again under fresh ids, even as another event: nothing runs again.
      for (const [event, deliveryId] of [['pull_request', randomUUID()], ['issues', randomUUID()]]) {
        const replay = await sendGithub(event!, body, { deliveryId });
        expect(replay.status).to.equal(202);
        expect(replay.body).to.deep.equal({ accepted: true, matched: 0, duplicate: true });
      }
      // GitHub's redelivery keeps the delivery id: that id answers for it, as before.
      expect((await sendGithub('pull_request', body, { deliveryId: original })).body).to.deep.include({ matched: 0, duplicate: true });
      // Another real event about the same pull request has another body.
      expect((await sendGithub('pull_request', githubPullRequest({ fullName, number: 21, action: 'opened' }))).body).to.deep.include({ matched: 1, duplicate: false });
      expect(await events()).to.equal(2);

      // Past the retention window the body is remembered anew, as its delivery id is forgotten.
      const digest = createHash('sha256').update(JSON.stringify(body)).digest('hex');
      const aged = () => db()('code_hosting_delivery_bodies').where({ provider: 'github', body_sha256: digest }).update({ received_at: db().raw(`now() - interval '8 days'`) });
      expect(await aged()).to.equal(1);
      const later = randomUUID();
      expect((await sendGithub('pull_request', body, { deliveryId: later })).body).to.deep.include({ matched: 1, duplicate: false });
      expect(await db()('code_hosting_delivery_bodies').where({ provider: 'github', body_sha256: digest }).first()).to.include({ delivery_id: later });
      expect(await aged()).to.equal(1);
      await harness().api.services.automationIntake.pruneDeliveries();
      expect(await db()('code_hosting_delivery_bodies').where({ provider: 'github', body_sha256: digest })).to.have.length(0);
      expect(await events()).to.equal(3);
    });

    it('route an event to the enabled automations whose trigger, repositories and actors match', async () => {
      const { org, api, env, fullName, repo } = await orgWithRepository('routing');
      const otherRepo = await harness().admin.addRepository({ organizationId: org.organization_id, url: `git@github.com:${fullName}-other.git` });
      // A long debounce: matched events open a window and wait; no workspace is needed here.
      const create = async (triggers: unknown[], extra: Record<string, unknown> = {}) => {
        const a = (await api.post('/v1/automations', { name: 'Route', prompt: 'x', environment_id: env, triggers, debounce_seconds: 3600, ...extra })).body.automation;
        expect(a, 'created').to.have.property('id');
        cleanups.push(() => api.delete(`/v1/automations/${a.id}`));
        return a;
      };
      const scoped = await create([{ type: 'github', config: { event: 'pull_request.opened', repository_ids: [repo.id], excluded_actors: ['@Dependabot[bot]'] } }]);
      const anyRepo = await create([PR_OPENED, PR_SYNC]);
      const disabled = await create([PR_OPENED], { enabled: false });
      const gitlab = await create([MR_OPENED]);
      // Another organization with the same event trigger sees nothing of this repository.
      const stranger = await newOrg('routing-stranger');
      const strangerAutomation = (
        await as(stranger.org_api_key).post('/v1/automations', { name: 'S', prompt: 'x', environment_id: await globalEnv(stranger.organization_id), triggers: [PR_OPENED], debounce_seconds: 3600 })
      ).body.automation;
      cleanups.push(() => as(stranger.org_api_key).delete(`/v1/automations/${strangerAutomation.id}`));

      const matched = async (body: Record<string, unknown>, event = 'pull_request') => {
        const answer = await sendGithub(event, body);
        expect(answer.status, JSON.stringify(answer.body)).to.equal(202);
        return answer.body.matched as number;
      };
      expect(await matched(githubPullRequest({ fullName, number: 5, action: 'opened' }))).to.equal(2);
      expect(await matched(githubPullRequest({ fullName, number: 6, action: 'opened', sender: 'dependabot[bot]' }))).to.equal(1);
      expect(await matched(githubPullRequest({ fullName: `${fullName}-other`, number: 7, action: 'opened' }))).to.equal(1);
      expect(await matched(githubPullRequest({ fullName, number: 5, action: 'synchronize' }))).to.equal(1);
      expect(await matched(githubPullRequest({ fullName, number: 5, action: 'labeled' }))).to.equal(0);
      expect(await matched(githubPullRequest({ fullName: 'someone/unknown', number: 1, action: 'opened' }))).to.equal(0);

      // Routing follows a PATCH at once (cached routes are dropped on every change).
      expect((await api.patch(`/v1/automations/${scoped.id}`, { triggers: [PR_OPENED] })).status).to.equal(200);
      expect(await matched(githubPullRequest({ fullName, number: 8, action: 'opened', sender: 'dependabot[bot]' }))).to.equal(2);
      expect((await api.patch(`/v1/automations/${scoped.id}`, { triggers: [PR_SYNC] })).status).to.equal(200);
      expect(await matched(githubPullRequest({ fullName, number: 8, action: 'opened' }))).to.equal(1);

      const keys = async (id: string) => (await db()('automation_events').where({ automation_id: id }).orderBy('id')).map((e) => e.debounce_key);
      expect(await keys(scoped.id)).to.deep.equal([`pr:${repo.id}:5`, `pr:${repo.id}:8`]);
      expect(await keys(anyRepo.id)).to.deep.equal([`pr:${repo.id}:5`, `pr:${repo.id}:6`, `pr:${otherRepo.id}:7`, `pr:${repo.id}:5`, `pr:${repo.id}:8`, `pr:${repo.id}:8`]);
      expect(await keys(disabled.id)).to.deep.equal([]);
      expect(await keys(strangerAutomation.id)).to.deep.equal([]);

      // GitLab: the merge request of a connected GitLab project reaches the gitlab trigger only.
      const gitlabRepo = await harness().admin.addRepository({ organizationId: org.organization_id, url: `https://gitlab.com/${fullName}.git` });
      const { token } = await connectGitlab(org.org_api_key);
      const mr = await sendGitlab(gitlabMergeRequest({ fullName, iid: 3 }), { token });
      expect(mr.status, JSON.stringify(mr.body)).to.equal(202);
      expect(mr.body.matched).to.equal(1);
      expect(await keys(gitlab.id)).to.deep.equal([`pr:${gitlabRepo.id}:3`]);
      const update = await sendGitlab(gitlabMergeRequest({ fullName, iid: 3, action: 'update' }), { token });
      expect(update.body.matched).to.equal(0);
    });
  });

  describe('debounce windows', () => {
    it('turn a burst of 20 events for one pull request into one run with the last payload; another pull request gets its own run', async () => {
      const { api, env, fullName, repo } = await orgWithRepository('debounce');
      const quietSeconds = 5;
      const automation = (
        await api.post('/v1/automations', { name: 'Review', prompt: 'Review the latest push.', environment_id: env, triggers: [PR_SYNC], debounce_seconds: quietSeconds })
      ).body.automation;
      cleanups.push(() => api.delete(`/v1/automations/${automation.id}`));

      const sha = (pr: number, i: number) => `${String(pr).padStart(2, '0')}${String(i).padStart(2, '0')}`.padEnd(40, 'c');
      const deliveryIds: string[] = [];
      // A burst is events closer together than the quiet period: each gap is measured from the
      // previous event sent, since the window closes that long after the last one.
      let lastSent = Date.now();
      let widestGap = 0;
      for (let i = 1; i <= 20; i++) {
        deliveryIds[i] = randomUUID();
        const answers = await Promise.all([
          sendGithub('pull_request', githubPullRequest({ fullName, number: 1, headSha: sha(1, i) }), { deliveryId: deliveryIds[i] }),
          ...(i % 4 === 0 ? [sendGithub('pull_request', githubPullRequest({ fullName, number: 2, headSha: sha(2, i) }))] : []),
        ]);
        for (const a of answers) expect(a.status, JSON.stringify(a.body)).to.equal(202);
        widestGap = Math.max(widestGap, Date.now() - lastSent);
        lastSent = Date.now();
        await new Promise((r) => setTimeout(r, 90));
      }
      expect(widestGap, 'no gap in the burst as long as the quiet period (the premise of one window)').to.be.below(quietSeconds * 1000);
      // A redelivery while the window is open is recognised, not counted again.
      const redelivered = await sendGithub('pull_request', githubPullRequest({ fullName, number: 1, headSha: sha(1, 7) }), { deliveryId: deliveryIds[7] });
      expect(redelivered.body).to.deep.include({ duplicate: true, matched: 0 });

      const windows = await until('both windows to close', async () => {
        const rows = await db()('automation_debounce_windows').where({ automation_id: automation.id }).orderBy('debounce_key');
        return rows.length === 2 && rows.every((w) => w.state === 'closed') ? rows : undefined;
      }, 30_000, 200);
      expect(windows.map((w) => [w.debounce_key, w.window_no, w.event_count])).to.deep.equal([
        [`pr:${repo.id}:1`, 1, 20],
        [`pr:${repo.id}:2`, 1, 5],
      ]);
      for (const w of windows) {
        const quiet = w.closed_at.getTime() - w.last_event_at.getTime();
        expect(quiet, 'closed after the quiet period').to.be.at.least(quietSeconds * 1000);
      }

      const executions = await executionsOf(automation.id);
      expect(executions, 'exactly one run per pull request').to.have.length(2);
      const byPr = new Map(executions.map((e) => [e.trigger_payload.pull_request.number, e]));
      expect(byPr.get(1)!.trigger_payload.pull_request.head.sha).to.equal(sha(1, 20));
      expect(byPr.get(2)!.trigger_payload.pull_request.head.sha).to.equal(sha(2, 20));
      expect(windows.map((w) => w.execution_id)).to.have.members(executions.map((e) => e.id));
      for (const e of executions) {
        const done = await finished(e.id);
        expect(done.status, done.error).to.equal('completed');
      }

      // A later event opens the next window of that pull request.
      const later = await sendGithub('pull_request', githubPullRequest({ fullName, number: 1, headSha: sha(1, 21) }));
      expect(later.body.matched).to.equal(1);
      expect(await db()('automation_debounce_windows').where({ automation_id: automation.id, debounce_key: `pr:${repo.id}:1`, state: 'open' }).first('window_no')).to.deep.equal({ window_no: 2 });
    });

    it('closes the open window of a disabled automation without a run', async () => {
      const { api, env, fullName } = await orgWithRepository('debounce-disabled');
      const automation = (
        await api.post('/v1/automations', { name: 'Review', prompt: 'x', environment_id: env, triggers: [PR_SYNC], debounce_seconds: 1 })
      ).body.automation;
      cleanups.push(() => api.delete(`/v1/automations/${automation.id}`));
      expect((await sendGithub('pull_request', githubPullRequest({ fullName, number: 9 }))).body.matched).to.equal(1);
      expect((await api.patch(`/v1/automations/${automation.id}`, { enabled: false })).status).to.equal(200);
      const window = await until('the window to close', async () => {
        const w = await db()('automation_debounce_windows').where({ automation_id: automation.id }).first();
        return w?.state === 'closed' ? w : undefined;
      }, 20_000, 200);
      expect(window.execution_id).to.equal(null);
      expect(await executionsOf(automation.id)).to.have.length(0);
    });
  });

  describe('the sweeper', () => {
    it('starts the window and the run whose workflow starts were lost after the inbox committed', async () => {
      const org = await newOrg('sweeper');
      const api = as(org.org_api_key);
      const env = await globalEnv(org.organization_id);
      const create = async (debounce: number | null) => {
        const a = (await api.post('/v1/automations', { name: 'Swept', prompt: 'Say hi.', environment_id: env, triggers: [CUSTOM], debounce_seconds: debounce })).body.automation;
        cleanups.push(() => api.delete(`/v1/automations/${a.id}`));
        return a;
      };
      const debounced = await create(1);
      const immediate = await create(null);
      // What the inbox commits before starting workflows, as if the process died right after.
      const earlier = db().raw("clock_timestamp() - interval '10 seconds'");
      const window = { automation_id: debounced.id, debounce_key: 'custom', window_no: 1 };
      await db()('automation_debounce_windows').insert({ ...window, opened_at: earlier });
      await db()('automation_events').insert({ ...window, payload: JSON.stringify({ lost: 'window' }), received_at: earlier });
      const executionId = randomUUID();
      await db()('automation_executions').insert({
        id: executionId,
        automation_id: immediate.id,
        organization_id: org.organization_id,
        trigger_payload: JSON.stringify({ lost: 'run' }),
        status: 'pending',
        triggered_at: earlier,
        config: '{}',
      });

      const closed = await until('the swept window to close', async () => {
        const w = await db()('automation_debounce_windows').where(window).first();
        return w?.state === 'closed' ? w : undefined;
      }, 30_000, 200);
      expect(closed.workflow_started_at).to.be.instanceOf(Date);
      const fromWindow = await finished(closed.execution_id);
      expect(fromWindow.trigger_payload).to.deep.equal({ lost: 'window' });
      expect(fromWindow.status, fromWindow.error).to.equal('completed');
      const run = await finished(executionId);
      expect(run.status, run.error).to.equal('completed');
      expect(await executionsOf(immediate.id)).to.have.length(1);
    });
  });

  describe('checks', () => {
    it('opens a check per name when a pull-request run starts and completes them with the verdict; a worker restart mid-run duplicates nothing', async () => {
      const { org, api, env, fullName } = await orgWithRepository('checks');
      const automation = (
        await api.post('/v1/automations', {
          name: 'Gate',
          // Long enough to restart the worker while the agent works.
          prompt: '!sleep 4000\nLooks good.',
          environment_id: env,
          triggers: [PR_OPENED],
          vcs_check_names: ['hangar/review', 'hangar/tests'],
        })
      ).body.automation;
      cleanups.push(() => api.delete(`/v1/automations/${automation.id}`));
      const headSha = randomUUID().replace(/-/g, '').padEnd(40, 'e');
      const github = fakeGithub();
      const answer = await sendGithub('pull_request', githubPullRequest({ fullName, number: 12, action: 'opened', headSha, installationId: 4242 }));
      expect(answer.body.matched).to.equal(1);

      const runsFor = () => [...github.checkRuns.values()].filter((r) => r.head_sha === headSha);
      await until('both checks in progress while the run works', async () => {
        const runs = runsFor();
        const exec = (await executionsOf(automation.id))[0];
        return runs.length === 2 && runs.every((r) => r.status === 'in_progress') && exec?.status === 'running';
      }, 60_000, 100);
      expect(runsFor().map((r) => r.name).sort()).to.deep.equal(['hangar/review', 'hangar/tests']);
      expect(runsFor().every((r) => r.repository === fullName)).to.equal(true);

      await harness().restartWorker();

      const [exec] = await executionsOf(automation.id);
      const done = await finished(exec.id);
      expect(done.status, done.error).to.equal('completed');
      await until('both checks completed', async () => runsFor().every((r) => r.status === 'completed'), 30_000, 100);
      expect(runsFor().map((r) => r.conclusion)).to.deep.equal(['success', 'success']);

      // Nothing doubled: one execution, one workspace, one check created per name.
      expect(await executionsOf(automation.id)).to.have.length(1);
      const workspaces = await db()('replicas').where({ organization_id: org.organization_id, source: 'automation' });
      expect(workspaces.map((w) => w.id)).to.deep.equal([done.workspace_id]);
      const creates = github.calls.filter((c) => c.method === 'POST' && c.path.endsWith('/check-runs') && (c.body as { head_sha?: string }).head_sha === headSha);
      expect(creates).to.have.length(2);
      expect(await db()('automation_checks').where({ execution_id: exec.id }).pluck('status')).to.deep.equal(['completed', 'completed']);
    });
  });
});
