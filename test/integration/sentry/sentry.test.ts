/**
 * Sentry automations through the public HTTP API on the real stack: signed integration-platform
 * deliveries (test/support/fakeSentry.ts) fire the connected organization's `sentry`
 * automations, filtered by event, project and level; a forged or unverifiable delivery starts
 * nothing.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { harness } from '../../support/harness';
import { as, errorOf, newOrg } from '../../support/http';
import { until } from '../../support/wait';
import { sendSentry, sentryErrorCreated, sentryEventAlert, sentryIssueCreated, signSentry } from '../../support/fakeSentry';

const db = () => harness().database.db;

/** An organization with a Sentry connection (made through /v1/connections) and its global environment. */
async function sentryOrg(options: { installationUuid?: string } = {}) {
  const org = await newOrg('sentry');
  const slug = `acme-${randomUUID().slice(0, 8)}`;
  const clientSecret = `sentry-secret-${randomUUID()}`;
  const api = as(org.org_api_key);
  const connected = await api.post('/v1/connections', {
    provider: 'sentry',
    external_id: slug,
    name: 'Sentry',
    secrets: { client_secret: clientSecret },
    ...(options.installationUuid ? { settings: { installation_id: options.installationUuid } } : {}),
  });
  expect(connected.status, JSON.stringify(connected.body)).to.equal(201);
  const env = (await db()('environments').where({ organization_id: org.organization_id, is_global: true }).first('id')).id as string;
  const send = (resource: string, body: unknown, opts: { requestId?: string | null; signature?: string | null; clientSecret?: string } = {}) =>
    sendSentry(harness().baseUrl, resource, body, { clientSecret, ...opts });
  return { org, api, slug, clientSecret, env, send };
}

const executionsOf = (automationId: string) => db()('automation_executions').where({ automation_id: automationId }).orderBy('triggered_at');

describe('sentry automations', function () {
  this.timeout(300_000);

  it('fires a matching automation for a signed issue alert: an execution, a workspace, the alert in its prompt', async () => {
    const { api, slug, env, send } = await sentryOrg();
    const created = await api.post('/v1/automations', {
      name: 'Triage checkout errors',
      prompt: 'Find the cause of this Sentry alert.',
      environment_id: env,
      triggers: [{ type: 'sentry', config: { event: 'event_alert.triggered', project_slugs: ['checkout'], min_level: 'error' } }],
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    const automation = created.body.automation;
    expect(automation.triggers).to.deep.equal([{ type: 'sentry', config: { event: 'event_alert.triggered', project_slugs: ['checkout'], min_level: 'error' } }]);

    const requestId = randomUUID();
    const answer = await send('event_alert', sentryEventAlert({ organization: slug, project: 'checkout', issueId: '4242', level: 'fatal', rule: 'Checkout is down' }), { requestId });
    expect(answer.status, JSON.stringify(answer.body)).to.equal(202);
    expect(answer.body).to.deep.equal({ accepted: true, matched: 1, duplicate: false });

    // The same delivery again (Sentry retries with its Request-ID): nothing new.
    const again = await send('event_alert', sentryEventAlert({ organization: slug, project: 'checkout', issueId: '4242', level: 'fatal' }), { requestId });
    expect(again.body).to.deep.equal({ accepted: true, matched: 0, duplicate: true });

    const [execution] = await executionsOf(automation.id);
    expect(execution.trigger_payload).to.include({ provider: 'sentry', event: 'event_alert.triggered', project: 'checkout', issue_id: '4242', level: 'fatal', triggered_rule: 'Checkout is down' });
    const done = await until('the execution to finish', async () => {
      const e = await db()('automation_executions').where({ id: execution.id }).first();
      return e && (e.status === 'completed' || e.status === 'failed') ? e : undefined;
    }, 150_000, 250);
    expect(done.status, done.error).to.equal('completed');
    const workspace = (await api.get(`/v1/replica/${done.workspace_id}`)).body.replica;
    expect(workspace.id).to.equal(done.workspace_id);
    const [first] = await db()('replica_messages').where({ replica_id: done.workspace_id }).orderBy('created_at');
    expect(first.content).to.contain('Find the cause of this Sentry alert.').and.contain('## Trigger Payload').and.contain('"issue_id": "4242"');
    expect(await executionsOf(automation.id)).to.have.length(1);
  });

  it('a captured delivery replayed under another Request-ID, or none, starts nothing (the id is not signed, the body is)', async () => {
    const { api, slug, env, send } = await sentryOrg();
    const automation = (await api.post('/v1/automations', { name: 'Replays', prompt: 'x', environment_id: env, triggers: [{ type: 'sentry', config: { event: 'issue.created' } }] })).body
      .automation;
    const captured = sentryIssueCreated({ organization: slug, project: 'api', issueId: '777', level: 'error' });
    expect((await send('issue', captured)).body).to.deep.equal({ accepted: true, matched: 1, duplicate: false });

    for (const requestId of [randomUUID(), null]) {
      const replayed = await send('issue', captured, { requestId });
      expect(replayed.status, JSON.stringify(replayed.body)).to.equal(202);
      expect(replayed.body, `Request-ID ${requestId}`).to.deep.equal({ accepted: true, matched: 0, duplicate: true });
    }
    expect(await executionsOf(automation.id)).to.have.length(1);

    // Another issue (another body) still fires.
    const next = await send('issue', sentryIssueCreated({ organization: slug, project: 'api', issueId: '778', level: 'error' }));
    expect(next.body).to.deep.equal({ accepted: true, matched: 1, duplicate: false });
    expect(await executionsOf(automation.id)).to.have.length(2);
  });

  it('does not fire for a lower level, another project, another event or another organization', async () => {
    const a = await sentryOrg();
    const b = await sentryOrg();
    const trigger = { type: 'sentry', config: { event: 'issue.created', project_slugs: ['api'], min_level: 'error' } };
    const mine = (await a.api.post('/v1/automations', { name: 'A', prompt: 'x', environment_id: a.env, triggers: [trigger] })).body.automation;
    const theirs = (await b.api.post('/v1/automations', { name: 'B', prompt: 'x', environment_id: b.env, triggers: [trigger] })).body.automation;
    const disabled = (await a.api.post('/v1/automations', { name: 'off', prompt: 'x', environment_id: a.env, enabled: false, triggers: [trigger] })).body.automation;

    const misses: Array<[string, Record<string, unknown>]> = [
      ['issue', sentryIssueCreated({ organization: a.slug, project: 'api', level: 'warning' })],
      ['issue', sentryIssueCreated({ organization: a.slug, project: 'web', level: 'fatal' })],
      ['error', sentryErrorCreated({ organization: a.slug, project: 'api', level: 'fatal' })],
      ['issue', { ...sentryIssueCreated({ organization: a.slug, project: 'api', level: 'fatal' }), action: 'resolved' }],
    ];
    for (const [resource, body] of misses) {
      const answer = await a.send(resource, body);
      expect(answer.status, JSON.stringify(answer.body)).to.equal(202);
      expect(answer.body.matched, JSON.stringify(body).slice(0, 200)).to.equal(0);
    }
    const hit = await a.send('issue', sentryIssueCreated({ organization: a.slug, project: 'API', level: 'error' }));
    expect(hit.body).to.deep.equal({ accepted: true, matched: 1, duplicate: false });
    expect(await executionsOf(mine.id)).to.have.length(1);
    expect(await executionsOf(theirs.id)).to.have.length(0);
    expect(await executionsOf(disabled.id)).to.have.length(0);

    // The list filter finds sentry automations.
    const listed = (await a.api.get('/v1/automations?trigger_type=sentry')).body.automations.map((x: { id: string }) => x.id);
    expect(listed).to.have.members([mine.id, disabled.id]);
    expect((await a.api.get('/v1/automations?trigger_type=github')).body.automations).to.deep.equal([]);
  });

  it('answers 401 to a forged, missing or foreign signature and to an unknown organization, and starts nothing', async () => {
    const installationUuid = randomUUID();
    const a = await sentryOrg({ installationUuid });
    const b = await sentryOrg();
    const automation = (
      await a.api.post('/v1/automations', { name: 'A', prompt: 'x', environment_id: a.env, triggers: [{ type: 'sentry', config: { event: 'issue.created' } }] })
    ).body.automation;
    const body = sentryIssueCreated({ organization: a.slug, project: 'api', installationUuid });
    const raw = JSON.stringify(body);

    const attempts: Array<[string, Promise<{ status: number; body: any }>]> = [
      ['no signature', a.send('issue', body, { signature: null })],
      ['another secret', a.send('issue', body, { signature: signSentry(raw, 'guessed') })],
      ["another connection's secret", a.send('issue', body, { clientSecret: b.clientSecret })],
      ['a signature of another body', a.send('issue', body, { signature: signSentry('{}', a.clientSecret) })],
      ['an unknown organization', a.send('issue', sentryIssueCreated({ organization: 'nobody-here', project: 'api' }))],
      ['another installation', a.send('issue', sentryIssueCreated({ organization: a.slug, project: 'api', installationUuid: randomUUID() }))],
    ];
    for (const [what, pending] of attempts) {
      const answer = await pending;
      expect(answer.status, what).to.equal(401);
      expect(errorOf(answer as any).error, what).to.match(/signature/i);
    }
    const notJson = await fetch(`${harness().baseUrl}/v1/webhooks/sentry`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{oops' });
    expect(notJson.status).to.equal(401);
    expect(await executionsOf(automation.id)).to.have.length(0);

    const genuine = await a.send('issue', body);
    expect(genuine.body).to.deep.equal({ accepted: true, matched: 1, duplicate: false });
  });
});
