/**
 * Pull request commands and grouping through the public HTTP API with real PostgreSQL,
 * Temporal and Docker: a signed `/hangar …` comment fires a `pull_request.command` automation
 * (and nothing else does), a GitLab note does the same for `merge_request.command`, the manual
 * trigger's `pr` reads the pull request from (the fake) GitHub and reports checks only where
 * Hangar's own records say, and `group_pr_events` sends later events of a pull request to the
 * workspace its first event made.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { fakeGithub, harness } from '../../support/harness';
import { as, errorOf, newOrg, request } from '../../support/http';
import { until } from '../../support/wait';
import { connectGitlab, githubComment, githubPullRequest, gitlabNote, sendGithub, sendGitlab } from '../../support/codeHosting';
import { PR_OPENED, PR_SYNC } from './support';

const db = () => harness().database.db;
const COMMAND = { type: 'github', config: { event: 'pull_request.command' } };
const sha = () => randomUUID().replace(/-/g, '').padEnd(40, 'd');

async function globalEnv(organizationId: string): Promise<string> {
  return (await db()('environments').where({ organization_id: organizationId, is_global: true }).first('id')).id;
}

const executionsOf = (automationId: string) => db()('automation_executions').where({ automation_id: automationId }).orderBy('triggered_at');

async function finished(id: string) {
  return until(`execution ${id} to finish`, async () => {
    const e = await db()('automation_executions').where({ id }).first();
    return e && (e.status === 'completed' || e.status === 'failed') ? e : undefined;
  }, 150_000, 250);
}

const messagesOf = (workspaceId: string) => db()('replica_messages').where({ replica_id: workspaceId }).orderBy('created_at');

/** An organization with a GitHub repository connected. */
async function orgWithRepository(name: string) {
  const org = await newOrg(name);
  const fullName = `acme-${randomUUID().slice(0, 8)}/${name}`;
  const repo = await harness().admin.addRepository({ organizationId: org.organization_id, url: `https://github.com/${fullName}` });
  return { org, api: as(org.org_api_key), env: await globalEnv(org.organization_id), fullName, repo };
}

describe('pull request commands and grouping', function () {
  this.timeout(300_000);
  const cleanups: Array<() => Promise<unknown>> = [];
  after(async () => {
    for (const c of cleanups) await c();
  });

  async function automation(api: ReturnType<typeof as>, body: Record<string, unknown>) {
    const answer = await api.post('/v1/automations', { name: 'Commands', prompt: 'Do what the pull request needs.', ...body });
    expect(answer.status, JSON.stringify(answer.body)).to.equal(201);
    const a = answer.body.automation;
    cleanups.push(() => api.delete(`/v1/automations/${a.id}`));
    return a;
  }

  it('a /hangar comment on a pull request fires the command automation with the command in its prompt; other comments do not', async () => {
    const { api, env, fullName } = await orgWithRepository('commands');
    const a = await automation(api, { environment_id: env, triggers: [{ type: 'github', config: { event: 'pull_request.command', excluded_actors: ['@Dependabot[bot]'] } }] });
    expect(a.triggers[0].config).to.deep.equal({ event: 'pull_request.command', repository_ids: [], excluded_actors: ['@Dependabot[bot]'], group_pr_events: false });

    const matched = async (event: string, body: Record<string, unknown>) => {
      const answer = await sendGithub(event, body);
      expect(answer.status, JSON.stringify(answer.body)).to.equal(202);
      return answer.body.matched as number;
    };
    expect(await matched('issue_comment', githubComment({ fullName, number: 4, body: 'Looks good to me, /hangar fix the tests later' }))).to.equal(0);
    expect(await matched('issue_comment', githubComment({ fullName, number: 4, body: '@hangar fix the tests' }))).to.equal(0);
    expect(await matched('issue_comment', githubComment({ fullName, number: 5, body: '/hangar fix the tests', onIssue: true }))).to.equal(0);
    expect(await matched('issue_comment', githubComment({ fullName, number: 4, body: '/hangar fix the tests', commenter: 'dependabot[bot]' }))).to.equal(0);
    expect(await matched('issue_comment', githubComment({ fullName, number: 4, body: '/hangar fix the tests', commenter: 'hangar[bot]' }))).to.equal(0);
    expect(await matched('issue_comment', githubComment({ fullName, number: 4, body: '/hangar fix the tests', action: 'edited' }))).to.equal(0);
    expect(await matched('pull_request', githubPullRequest({ fullName, number: 4, action: 'opened' }))).to.equal(0);
    expect(await executionsOf(a.id)).to.have.length(0);

    expect(await matched('issue_comment', githubComment({ fullName, number: 4, body: '/hangar fix the tests', commenter: 'alice', installationId: 77 }))).to.equal(1);
    const [exec] = await executionsOf(a.id);
    expect(exec.trigger_payload).to.deep.include({ provider: 'github', event: 'pull_request.command', sender: 'alice', installation_id: 77 });
    expect(exec.trigger_payload.command).to.deep.include({ text: 'fix the tests', author: 'alice' });
    expect(exec.trigger_payload.pull_request).to.deep.include({ number: 4, url: `https://github.com/${fullName}/pull/4` });
    const done = await finished(exec.id);
    expect(done.status, done.error).to.equal('completed');
    const [first] = await messagesOf(done.workspace_id);
    expect(first.content).to.include('Do what the pull request needs.');
    expect(first.content).to.include('"text": "fix the tests"');
    expect(first.content).to.include('"event": "pull_request.command"');
    expect(await executionsOf(a.id)).to.have.length(1);
  });

  it('a /hangar note on a GitLab merge request is a merge_request.command event', async () => {
    const { org, api, env, fullName } = await orgWithRepository('gitlab-commands');
    const gitlabRepo = await harness().admin.addRepository({ organizationId: org.organization_id, url: `https://gitlab.com/${fullName}.git` });
    // A long debounce: the event waits in its window, no workspace is needed to see it routed.
    const a = await automation(api, { environment_id: env, triggers: [{ type: 'gitlab', config: { event: 'merge_request.command' } }], debounce_seconds: 3600 });
    const { token } = await connectGitlab(org.org_api_key);
    const note = async (text: string, user?: string) => {
      const answer = await sendGitlab(gitlabNote({ fullName, iid: 8, note: text, user }), { event: 'Note Hook', token });
      expect(answer.status, JSON.stringify(answer.body)).to.equal(202);
      return answer.body.matched as number;
    };
    expect(await note('LGTM')).to.equal(0);
    expect(await note('/hangar rebase', 'hangar')).to.equal(0);
    expect(await note('/hangar rebase onto main')).to.equal(1);
    const events = await db()('automation_events').where({ automation_id: a.id });
    expect(events.map((e) => e.debounce_key)).to.deep.equal([`pr:${gitlabRepo.id}:8`]);
    expect(events[0].payload.command).to.deep.include({ text: 'rebase onto main', author: 'dev' });
    expect(events[0].payload.merge_request.head).to.deep.equal({ ref: 'feature', sha: 'b'.repeat(40) });
  });

  it('the manual trigger with pr reads the pull request from GitHub, reports checks only there, and makes a new workspace per call', async () => {
    const { org, api, env, fullName, repo } = await orgWithRepository('manual-pr');
    const github = fakeGithub();
    const headSha = sha();
    github.pulls.put({ repository: fullName, number: 21, headSha, title: 'Fix the flaky tests', installationId: 5151 });
    const a = await automation(api, {
      environment_id: env,
      triggers: [{ type: 'github', config: { event: 'pull_request.command', repository_ids: [repo.id], group_pr_events: true } }, PR_OPENED],
      vcs_check_names: ['hangar/manual'],
    });

    // Whatever the caller's payload claims, the pull request, its commit and installation are GitHub's.
    const forgedSha = sha();
    const payload = { note: 'by hand', repository: { full_name: 'victim/repo' }, pull_request: { number: 21, head: { sha: forgedSha } }, installation_id: 1, repository_id: randomUUID() };
    const fired = await api.post(`/v1/automations/${a.id}/trigger`, { pr: { repository_id: repo.id, number: 21 }, payload });
    expect(fired.status, JSON.stringify(fired.body)).to.equal(200);
    const exec = await db()('automation_executions').where({ id: fired.body.execution_id }).first();
    expect(exec.trigger_payload).to.deep.include({ note: 'by hand', provider: 'github', event: 'pull_request.command', repository_id: repo.id, installation_id: 5151 });
    expect(exec.trigger_payload.repository.full_name).to.equal(fullName);
    expect(exec.trigger_payload.pull_request).to.deep.include({ number: 21, title: 'Fix the flaky tests', head: { ref: 'feature-21', sha: headSha } });
    const done = await finished(exec.id);
    expect(done.status, done.error).to.equal('completed');
    expect((await messagesOf(done.workspace_id))[0].content).to.include('Fix the flaky tests');

    const runs = () => [...github.checkRuns.values()].filter((r) => r.name === 'hangar/manual');
    await until('the check to complete', async () => runs().some((r) => r.head_sha === headSha && r.status === 'completed'), 30_000, 100);
    expect(runs().map((r) => [r.repository, r.head_sha, r.conclusion])).to.deep.equal([[fullName, headSha, 'success']]);
    expect(github.calls.some((c) => c.method === 'POST' && c.path === '/app/installations/5151/access_tokens')).to.equal(true);

    // group_pr_events does not apply to manual fires: a second call gets a workspace of its own.
    const again = await api.post(`/v1/automations/${a.id}/trigger`, { pr: { repository_id: repo.id, number: 21 } });
    expect(again.status, JSON.stringify(again.body)).to.equal(200);
    const second = await finished(again.body.execution_id);
    expect(second.status, second.error).to.equal('completed');
    expect(second.workspace_id).to.be.a('string').and.not.equal(done.workspace_id);
    expect(await messagesOf(done.workspace_id)).to.have.length(1);
    cleanups.push(() => api.delete(`/v1/replica/${done.workspace_id}`), () => api.delete(`/v1/replica/${second.workspace_id}`));

    // What a pr cannot name: an automation without the command trigger, a repository the
    // trigger does not cover, another organization's repository, a pull request GitHub lacks.
    const before = (await executionsOf(a.id)).length;
    const withoutCommand = await automation(api, { environment_id: env, triggers: [PR_OPENED] });
    const refused = await api.post(`/v1/automations/${withoutCommand.id}/trigger`, { pr: { repository_id: repo.id, number: 21 } });
    expect(refused.status).to.equal(400);
    expect(errorOf(refused).details).to.match(/^body\.pr: only an automation with a github pull_request\.command trigger/);
    const other = await harness().admin.addRepository({ organizationId: org.organization_id, url: `https://github.com/${fullName}-other` });
    const uncovered = await api.post(`/v1/automations/${a.id}/trigger`, { pr: { repository_id: other.id, number: 21 } });
    expect(uncovered.status).to.equal(400);
    expect(errorOf(uncovered).details).to.match(/does not cover repository/);
    const stranger = await orgWithRepository('manual-pr-stranger');
    const foreign = await api.post(`/v1/automations/${a.id}/trigger`, { pr: { repository_id: stranger.repo.id, number: 21 } });
    const unknown = await api.post(`/v1/automations/${a.id}/trigger`, { pr: { repository_id: randomUUID(), number: 21 } });
    expect(foreign.status).to.equal(400);
    expect(unknown.status).to.equal(400);
    const stranded = await api.patch(`/v1/automations/${a.id}`, { triggers: [{ type: 'github', config: { event: 'pull_request.command' } }, PR_OPENED] });
    expect(stranded.status, JSON.stringify(stranded.body)).to.equal(200);
    const foreignAny = await api.post(`/v1/automations/${a.id}/trigger`, { pr: { repository_id: stranger.repo.id, number: 21 } });
    const unknownAny = await api.post(`/v1/automations/${a.id}/trigger`, { pr: { repository_id: randomUUID(), number: 21 } });
    expect(foreignAny.status).to.equal(404);
    expect(errorOf(foreignAny).error).to.equal('Repository not found');
    expect(errorOf(unknownAny).error).to.equal(errorOf(foreignAny).error);
    const missing = await api.post(`/v1/automations/${a.id}/trigger`, { pr: { repository_id: repo.id, number: 22 } });
    expect(missing.status).to.equal(404);
    expect(errorOf(missing).error).to.equal('Pull request not found');
    const malformed = await api.post(`/v1/automations/${a.id}/trigger`, { pr: { repository_id: repo.id, number: 0 } });
    expect(malformed.status).to.equal(400);
    expect(await executionsOf(a.id)).to.have.length(before);
    expect(await executionsOf(withoutCommand.id)).to.have.length(0);
  });

  it('a payload that merely names a pull request reports no check (manual fire without pr, custom webhook)', async () => {
    const { api, env, fullName, repo } = await orgWithRepository('forged-checks');
    const github = fakeGithub();
    const a = await automation(api, { environment_id: env, triggers: [PR_OPENED, { type: 'custom', config: {} }], vcs_check_names: ['hangar/forged'] });
    const forged = (headSha: string) => ({
      provider: 'github',
      repository: { full_name: fullName },
      pull_request: { number: 3, head: { sha: headSha } },
      repository_id: repo.id,
      installation_id: 5151,
    });
    const manualSha = sha();
    const fired = await api.post(`/v1/automations/${a.id}/trigger`, { payload: forged(manualSha) });
    expect(fired.status, JSON.stringify(fired.body)).to.equal(200);
    const hookSha = sha();
    const hooked = await request('POST', `/v1/automations/webhook/${a.webhook_token}`, { body: forged(hookSha) });
    expect(hooked.status).to.equal(202);
    const runs = await executionsOf(a.id);
    expect(runs).to.have.length(2);
    for (const r of runs) {
      const done = await finished(r.id);
      expect(done.status, done.error).to.equal('completed');
      cleanups.push(() => api.delete(`/v1/replica/${done.workspace_id}`));
    }
    expect([...github.checkRuns.values()].filter((r) => r.head_sha === manualSha || r.head_sha === hookSha)).to.deep.equal([]);
    expect(await db()('automation_checks').whereIn('execution_id', runs.map((r) => r.id))).to.deep.equal([]);
  });

  it('group_pr_events: opened, then synchronize and a command for the same pull request reach one workspace as follow-up messages', async () => {
    const { org, api, env, fullName } = await orgWithRepository('grouping');
    const a = await automation(api, {
      environment_id: env,
      prompt: 'Review the pull request.',
      triggers: [PR_OPENED, { ...PR_SYNC, config: { ...PR_SYNC.config, group_pr_events: true } }, { ...COMMAND, config: { ...COMMAND.config, group_pr_events: true } }],
    });
    expect((await sendGithub('pull_request', githubPullRequest({ fullName, number: 31, action: 'opened' }))).body.matched).to.equal(1);
    const [opened] = await executionsOf(a.id);
    const first = await finished(opened.id);
    expect(first.status, first.error).to.equal('completed');
    const workspaceId = first.workspace_id as string;
    cleanups.push(() => api.delete(`/v1/replica/${workspaceId}`));

    const pushed = sha();
    expect((await sendGithub('pull_request', githubPullRequest({ fullName, number: 31, action: 'synchronize', headSha: pushed }))).body.matched).to.equal(1);
    const sync = (await executionsOf(a.id))[1];
    const second = await finished(sync.id);
    expect(second.status, second.error).to.equal('completed');
    expect(second.workspace_id).to.equal(workspaceId);

    expect((await sendGithub('issue_comment', githubComment({ fullName, number: 31, body: '/hangar fix the tests' }))).body.matched).to.equal(1);
    const command = (await executionsOf(a.id))[2];
    const third = await finished(command.id);
    expect(third.status, third.error).to.equal('completed');
    expect(third.workspace_id).to.equal(workspaceId);

    const messages = await messagesOf(workspaceId);
    expect(messages).to.have.length(3);
    expect(messages[0].content).to.include('"event": "pull_request.opened"');
    expect(messages[1].content).to.include('Review the pull request.').and.include('"event": "pull_request.synchronize"').and.include(pushed);
    expect(messages[2].content).to.include('"text": "fix the tests"');
    const workspaces = await db()('replicas').where({ organization_id: org.organization_id, source: 'automation' }).whereNull('deleted_at');
    expect(workspaces.map((w) => w.id)).to.deep.equal([workspaceId]);

    // Another pull request still gets its own workspace.
    expect((await sendGithub('pull_request', githubPullRequest({ fullName, number: 32, action: 'synchronize' }))).body.matched).to.equal(1);
    const otherPr = await finished((await executionsOf(a.id))[3].id);
    expect(otherPr.status, otherPr.error).to.equal('completed');
    expect(otherPr.workspace_id).to.be.a('string').and.not.equal(workspaceId);
    cleanups.push(() => api.delete(`/v1/replica/${otherPr.workspace_id}`));
  });
});
