import { generateKeyPairSync } from 'node:crypto';
import { expect } from 'chai';
import { GithubApiError } from '../../../../src/integrations/github/api';
import { createGithubChecksClient } from '../../../../src/integrations/github/checks';
import { startFakeGithub, type FakeGithub } from '../../../support/fakeGithub';

const REPO = 'octo-org/hello.world';
const SHA = 'a'.repeat(40);

/** The rejection of `promise`, which must reject with a GithubApiError. */
async function rejection(promise: Promise<unknown>): Promise<GithubApiError> {
  try {
    await promise;
  } catch (err) {
    expect(err).to.be.instanceOf(GithubApiError);
    return err as GithubApiError;
  }
  expect.fail('expected a GithubApiError');
}

describe('GitHub Checks client', () => {
  let gh: FakeGithub;

  beforeEach(async () => {
    gh = await startFakeGithub({ staticToken: 'github_pat_static_123' });
  });
  afterEach(async () => {
    await gh.close();
  });

  const appClient = () => createGithubChecksClient({ apiUrl: `${gh.url}/`, appId: gh.appId, privateKeyPem: gh.privateKeyPem });
  const mints = () => gh.calls.filter((c) => c.path.startsWith('/app/installations/'));
  const checksCalls = () => gh.calls.filter((c) => c.path.startsWith('/repos/'));

  it('mints an installation token once with the App JWT, reuses it, and mints another for a second installation', async () => {
    const client = appClient();
    expect(client.configured).to.equal(true);

    const first = await client.ensureCheckRun({ repository: REPO, installationId: 11, headSha: SHA, name: 'hangar', externalId: 'run-1' });
    await client.completeCheckRun({ repository: REPO, installationId: 11, id: first.id, conclusion: 'success', title: 'ok', summary: 'done' });
    await client.ensureCheckRun({ repository: 'other/repo', installationId: 22, headSha: SHA, name: 'hangar', externalId: 'run-2' });
    await client.ensureCheckRun({ repository: REPO, installationId: 11, headSha: SHA, name: 'hangar', externalId: 'run-3' });

    expect(mints().map((c) => [c.method, c.path])).to.deep.equal([
      ['POST', '/app/installations/11/access_tokens'],
      ['POST', '/app/installations/22/access_tokens'],
    ]);
    expect(mints()[0].authorization).to.match(/^Bearer eyJ[\w-]+\.[\w-]+\.[\w-]+$/);

    // Every Checks call carries an installation token, the same one within an installation.
    const byRepo = (repo: string) => new Set(checksCalls().filter((c) => c.path.startsWith(`/repos/${repo}/`)).map((c) => c.authorization));
    const tokens11 = byRepo(REPO);
    const tokens22 = byRepo('other/repo');
    expect(tokens11.size).to.equal(1);
    expect(tokens22.size).to.equal(1);
    expect([...tokens11][0]).to.match(/^Bearer ghs_/);
    expect([...tokens22][0]).to.match(/^Bearer ghs_/);
    expect([...tokens11][0]).to.not.equal([...tokens22][0]);
  });

  it('sends GitHub’s media type, API version and user agent on every call', async () => {
    const client = appClient();
    const { id } = await client.ensureCheckRun({ repository: REPO, installationId: 1, headSha: SHA, name: 'hangar', externalId: 'x' });
    await client.completeCheckRun({ repository: REPO, installationId: 1, id, conclusion: 'neutral', title: 't', summary: 's' });
    expect(gh.calls.length).to.equal(4);
    for (const call of gh.calls) {
      expect(call.headers.accept, call.path).to.equal('application/vnd.github+json');
      expect(call.headers['x-github-api-version'], call.path).to.equal('2022-11-28');
      expect(call.headers['user-agent'], call.path).to.equal('hangar');
      if (call.body !== undefined) expect(call.headers['content-type'], call.path).to.equal('application/json');
    }
  });

  it('uses a static token directly, ignoring the installation id', async () => {
    const client = createGithubChecksClient({ apiUrl: gh.url, token: 'github_pat_static_123' });
    expect(client.configured).to.equal(true);
    const { id, created } = await client.ensureCheckRun({ repository: REPO, installationId: 5, headSha: SHA, name: 'hangar', externalId: 'e1' });
    expect(created).to.equal(true);
    await client.completeCheckRun({ repository: REPO, id, conclusion: 'failure', title: 'x', summary: 'y' });

    expect(mints()).to.have.length(0);
    expect(gh.calls.map((c) => c.authorization)).to.deep.equal(Array(3).fill('Bearer github_pat_static_123'));
    expect(gh.checkRuns.get(id)?.conclusion).to.equal('failure');
  });

  it('creates a check run once, then finds it by external id without a second POST', async () => {
    const client = appClient();
    // A same-named run of another external id must not be taken for ours.
    const other = await client.ensureCheckRun({ repository: REPO, installationId: 1, headSha: SHA, name: 'hangar / ci & lint', externalId: 'someone-else' });
    const args = {
      repository: REPO,
      installationId: 1,
      headSha: SHA,
      name: 'hangar / ci & lint',
      externalId: 'replica-42',
      detailsUrl: 'https://hangar.example/replicas/42',
      title: 'Running',
      summary: 'Agent is working',
    };

    const first = await client.ensureCheckRun(args);
    const second = await client.ensureCheckRun(args);

    expect(first.created).to.equal(true);
    expect(second).to.deep.equal({ id: first.id, created: false });
    expect(first.id).to.not.equal(other.id);
    expect(gh.calls.filter((c) => c.method === 'POST' && c.path.endsWith('/check-runs'))).to.have.length(2);

    const list = gh.calls.find((c) => c.method === 'GET');
    const url = new URL(list!.path, 'http://x');
    expect(url.pathname).to.equal(`/repos/octo-org/hello.world/commits/${SHA}/check-runs`);
    expect(Object.fromEntries(url.searchParams)).to.deep.equal({ check_name: 'hangar / ci & lint', filter: 'all', per_page: '100' });

    const post = gh.calls.filter((c) => c.method === 'POST' && c.path.endsWith('/check-runs'))[1].body as Record<string, unknown>;
    expect(post).to.include({ name: args.name, head_sha: SHA, external_id: 'replica-42', status: 'in_progress', details_url: args.detailsUrl });
    expect(post.started_at).to.match(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(post.output).to.deep.equal({ title: 'Running', summary: 'Agent is working' });

    const run = gh.checkRuns.get(first.id);
    expect(run).to.include({ repository: REPO, name: args.name, head_sha: SHA, external_id: 'replica-42', status: 'in_progress', conclusion: null });
  });

  it('completes a check run with its conclusion and output, truncating an oversized summary', async () => {
    const client = appClient();
    const { id } = await client.ensureCheckRun({ repository: REPO, installationId: 1, headSha: SHA, name: 'hangar', externalId: 'c1' });

    await client.completeCheckRun({ repository: REPO, installationId: 1, id, conclusion: 'action_required', title: 'Needs review', summary: 'Three files changed' });
    const run = gh.checkRuns.get(id)!;
    expect(run).to.include({ status: 'completed', conclusion: 'action_required' });
    expect(run.completed_at).to.be.a('string');
    expect(run.output).to.deep.equal({ title: 'Needs review', summary: 'Three files changed' });
    const patch = gh.calls.find((c) => c.method === 'PATCH')!;
    expect(patch.path).to.equal(`/repos/octo-org/hello.world/check-runs/${id}`);
    const sent = patch.body as Record<string, unknown>;
    expect(sent).to.include({ status: 'completed', conclusion: 'action_required' });
    expect(sent.completed_at).to.match(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(sent.output).to.deep.equal({ title: 'Needs review', summary: 'Three files changed' });

    // The fake, like GitHub, answers 422 to a summary over 65535 characters.
    await client.completeCheckRun({ repository: REPO, installationId: 1, id, conclusion: 'success', title: 'Long', summary: 'x'.repeat(70_000) });
    const summary = (gh.checkRuns.get(id)!.output as { summary: string }).summary;
    expect(summary.length).to.be.at.most(65_535);
    expect(summary.startsWith('x'.repeat(60_000))).to.equal(true);
    expect(gh.checkRuns.get(id)!.conclusion).to.equal('success');
  });

  it('reports 5xx, 429 and a rate-limited 403 as retryable', async () => {
    const client = appClient();
    gh.failNext(1, 502, { method: 'GET', pathPrefix: '/repos/' });
    const err = await rejection(client.ensureCheckRun({ repository: REPO, installationId: 1, headSha: SHA, name: 'hangar', externalId: 'r' }));
    expect(err.status).to.equal(502);
    expect(err.retryable).to.equal(true);
    expect(gh.calls.filter((c) => c.method === 'GET')).to.have.length(1);

    gh.failNext(1, 429);
    expect((await rejection(client.ensureCheckRun({ repository: REPO, installationId: 1, headSha: SHA, name: 'hangar', externalId: 'r' }))).retryable).to.equal(true);
    gh.failNext(1, 403);
    const limited = await rejection(client.ensureCheckRun({ repository: REPO, installationId: 1, headSha: SHA, name: 'hangar', externalId: 'r' }));
    expect([limited.status, limited.retryable]).to.deep.equal([403, true]);

    // Once GitHub recovers, the same call goes through.
    const ok = await client.ensureCheckRun({ repository: REPO, installationId: 1, headSha: SHA, name: 'hangar', externalId: 'r' });
    expect(ok.created).to.equal(true);
  });

  it('reports a 422 and a 404 as not retryable, with GitHub’s message', async () => {
    const client = createGithubChecksClient({ apiUrl: gh.url, token: 'github_pat_static_123' });
    const missing = await rejection(client.completeCheckRun({ repository: REPO, id: 999, conclusion: 'success', title: 't', summary: 's' }));
    expect([missing.status, missing.retryable]).to.deep.equal([404, false]);
    expect(missing.message).to.contain('Not Found');

    const { id } = await client.ensureCheckRun({ repository: REPO, headSha: SHA, name: 'hangar', externalId: 'v' });
    // A conclusion GitHub does not know: the fake validates it as GitHub does.
    const refused = await rejection(client.completeCheckRun({ repository: REPO, id, conclusion: 'bogus' as never, title: 't', summary: 's' }));
    expect([refused.status, refused.retryable]).to.deep.equal([422, false]);
    expect(refused.message).to.contain('Invalid request.').and.to.contain('conclusion');
  });

  it('fails a wrong private key with a non-retryable 401 that leaks no secret', async () => {
    const wrongPem = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs1', format: 'pem' }) as string;
    const client = createGithubChecksClient({ apiUrl: gh.url, appId: gh.appId, privateKeyPem: wrongPem });

    const err = await rejection(client.ensureCheckRun({ repository: REPO, installationId: 7, headSha: SHA, name: 'hangar', externalId: 'k' }));
    expect(err.status).to.equal(401);
    expect(err.retryable).to.equal(false);
    expect(err.message).to.contain('JSON web token');

    const jwt = mints()[0].authorization!.replace(/^Bearer /, '');
    const keyBody = wrongPem.split('\n')[1];
    for (const secret of [jwt, jwt.split('.')[2], wrongPem, keyBody, gh.privateKeyPem.split('\n')[1]]) {
      expect(err.message).to.not.contain(secret);
      expect(String(err.stack)).to.not.contain(secret);
    }
    expect(checksCalls()).to.have.length(0);
  });

  it('refuses App auth without an installation id, and a malformed repository, before sending', async () => {
    const client = appClient();
    const noInstallation = await rejection(client.ensureCheckRun({ repository: REPO, headSha: SHA, name: 'hangar', externalId: 'n' }));
    expect(noInstallation.retryable).to.equal(false);
    expect(noInstallation.message).to.contain('installation id');
    const nullInstallation = await rejection(client.completeCheckRun({ repository: REPO, installationId: null, id: 1, conclusion: 'success', title: 't', summary: 's' }));
    expect(nullInstallation.retryable).to.equal(false);

    for (const repository of ['octo-org', 'a/b/c', '../etc', 'owner/..', 'own er/repo', '']) {
      const bad = await rejection(client.ensureCheckRun({ repository, installationId: 1, headSha: SHA, name: 'hangar', externalId: 'n' }));
      expect(bad.retryable, repository).to.equal(false);
      expect(bad.message, repository).to.contain('owner/name');
    }
    expect(gh.calls).to.have.length(0);
  });

  it('reports an unreachable API as retryable, and a bad static token as a non-retryable 401', async () => {
    const url = gh.url;
    await gh.close();
    const down = createGithubChecksClient({ apiUrl: url, token: 'github_pat_static_123', timeoutMs: 2000 });
    const err = await rejection(down.ensureCheckRun({ repository: REPO, headSha: SHA, name: 'hangar', externalId: 'd' }));
    expect([err.status, err.retryable]).to.deep.equal([0, true]);
    expect(err.message).to.not.contain('github_pat_static_123');

    gh = await startFakeGithub({ staticToken: 'github_pat_static_123' });
    const wrong = createGithubChecksClient({ apiUrl: gh.url, token: 'github_pat_wrong_456' });
    const denied = await rejection(wrong.ensureCheckRun({ repository: REPO, headSha: SHA, name: 'hangar', externalId: 'd' }));
    expect([denied.status, denied.retryable]).to.deep.equal([401, false]);
    expect(denied.message).to.contain('Bad credentials').and.not.contain('github_pat_wrong_456');
  });

  it('is not configured without credentials, and refuses to call', async () => {
    for (const config of [{}, { appId: '1' }, { privateKeyPem: 'pem' }, { token: '' }]) {
      const client = createGithubChecksClient({ apiUrl: gh.url, ...config });
      expect(client.configured, JSON.stringify(config)).to.equal(false);
    }
    const client = createGithubChecksClient({ apiUrl: gh.url });
    const err = await rejection(client.ensureCheckRun({ repository: REPO, headSha: SHA, name: 'hangar', externalId: 'u' }));
    expect(err.retryable).to.equal(false);
    expect(gh.calls).to.have.length(0);
  });
});
