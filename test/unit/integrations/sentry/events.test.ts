import { expect } from 'chai';
import { parseSentryEvent, sentryInstallationUuid, sentryOrganizationSlug, verifySentrySignature } from '../../../../src/integrations/sentry/events';
import { sentryErrorCreated, sentryEventAlert, sentryIssueCreated, signSentry } from '../../../support/fakeSentry';
import { PayloadError } from '../../../../src/integrations/payloadError';

const SECRET = 'sentry-client-secret';

describe('integrations/sentry/events', () => {
  it('verifies the hex HMAC-SHA256 of the raw body with the client secret', () => {
    const raw = JSON.stringify(sentryIssueCreated({ organization: 'acme', project: 'api' }));
    const body = Buffer.from(raw);
    expect(verifySentrySignature(SECRET, body, signSentry(raw, SECRET))).to.equal(true);
    expect(verifySentrySignature(SECRET, body, signSentry(raw, SECRET).toUpperCase())).to.equal(true);
    expect(verifySentrySignature(SECRET, body, signSentry(raw, 'other'))).to.equal(false);
    expect(verifySentrySignature(SECRET, Buffer.from(raw + ' '), signSentry(raw, SECRET))).to.equal(false);
    expect(verifySentrySignature(SECRET, body, undefined)).to.equal(false);
    expect(verifySentrySignature(SECRET, body, 'sha256=' + signSentry(raw, SECRET))).to.equal(false);
    expect(verifySentrySignature(SECRET, body, 'abc')).to.equal(false);
    expect(verifySentrySignature('', body, signSentry(raw, ''))).to.equal(false);
  });

  it('finds the organization slug in every resource it routes, and the installation', () => {
    const spec = { organization: 'Acme-Co', project: 'api', installationUuid: 'a8e5d37a-696c-4c54-adb5-b3f28d64c7de' };
    for (const body of [sentryIssueCreated(spec), sentryEventAlert(spec), sentryErrorCreated(spec)]) {
      expect(sentryOrganizationSlug(body)).to.equal('acme-co');
      expect(sentryInstallationUuid(body)).to.equal(spec.installationUuid);
    }
    const install = { action: 'created', data: { installation: { uuid: 'u', organization: { slug: 'test-org' } } }, installation: { uuid: 'u' } };
    expect(sentryOrganizationSlug(install)).to.equal('test-org');
    const issueWithWebUrlOnly = { data: { issue: { web_url: 'https://sentry.io/organizations/web-org/issues/1/' } } };
    expect(sentryOrganizationSlug(issueWithWebUrlOnly)).to.equal('web-org');
    expect(sentryOrganizationSlug({ data: {} })).to.equal(null);
    expect(sentryOrganizationSlug('nope')).to.equal(null);
  });

  it('maps issue created, event alert triggered and error created to compact payloads', () => {
    const issue = parseSentryEvent('issue', sentryIssueCreated({ organization: 'acme', project: 'api', issueId: '111', level: 'warning' }))!;
    expect(issue).to.deep.include({ event: 'issue.created', organizationSlug: 'acme', projectSlug: 'api', issueId: '111', level: 'warning' });
    expect(issue.payload).to.include({ provider: 'sentry', event: 'issue.created', project: 'api', issue_id: '111', short_id: 'API-1', level: 'warning', web_url: 'https://sentry.io/organizations/acme/issues/111/' });
    expect(issue.payload.title).to.equal("KeyError: 'cart'");

    const alert = parseSentryEvent('event_alert', sentryEventAlert({ organization: 'acme', project: 'web', issueId: '222', level: 'fatal', rule: 'Big' }))!;
    expect(alert).to.deep.include({ event: 'event_alert.triggered', projectSlug: 'web', issueId: '222', level: 'fatal' });
    expect(alert.payload).to.include({ issue_id: '222', triggered_rule: 'Big', error_type: 'KeyError', culprit: 'app.views.checkout in submit' });
    expect(alert.payload.event_id).to.match(/^[0-9a-f]{32}$/);
    expect(JSON.stringify(alert.payload)).not.to.contain('stacktrace');

    const error = parseSentryEvent('error', sentryErrorCreated({ organization: 'acme', project: 'web', issueId: '333' }))!;
    expect(error).to.deep.include({ event: 'error.created', projectSlug: 'web', issueId: '333', level: 'error' });
    expect(error.payload).not.to.have.property('triggered_rule');
  });

  it('ignores other resources and actions, and names the field a routed delivery lacks', () => {
    expect(parseSentryEvent('issue', { ...sentryIssueCreated({ organization: 'a', project: 'b' }), action: 'resolved' })).to.equal(null);
    expect(parseSentryEvent('installation', { action: 'created', data: {} })).to.equal(null);
    expect(parseSentryEvent('metric_alert', { action: 'critical', data: {} })).to.equal(null);
    expect(() => parseSentryEvent('issue', { action: 'created', data: {} })).to.throw(PayloadError, /data\.issue/);
    expect(() => parseSentryEvent('event_alert', { action: 'triggered', data: { event: { issue_id: '1' } } })).to.throw(PayloadError, /data\.event\.url/);
    expect(() => parseSentryEvent('error', { action: 'created', data: { error: { url: 'https://sentry.io/api/0/projects/a/b/events/1/' } } })).to.throw(PayloadError, /data\.error\.issue_id/);
    expect(() => parseSentryEvent('issue', 'text')).to.throw(PayloadError, /body/);
  });
});
