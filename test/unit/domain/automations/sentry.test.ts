import { expect } from 'chai';
import { normaliseTriggers } from '../../../../src/domain/automations/rules';
import { meetsMinLevel, sentryTriggerMatches } from '../../../../src/domain/automations/sentry';
import { DomainError } from '../../../../src/domain/errors';

const details = (fn: () => unknown): string => {
  try {
    fn();
  } catch (err) {
    expect(err).to.be.instanceOf(DomainError);
    expect((err as DomainError).kind).to.equal('invalid');
    return (err as DomainError).details ?? '';
  }
  throw new Error('expected an invalid error');
};

describe('domain/automations/sentry', () => {
  it('accepts the three sentry events and fills the defaults', () => {
    const triggers = normaliseTriggers([
      { type: 'sentry', config: { event: 'issue.created' } },
      { type: 'sentry', config: { event: 'event_alert.triggered', project_slugs: ['Backend', 'web_app'], min_level: 'warning' } },
      { type: 'sentry', config: { event: 'error.created', project_slugs: null, min_level: null } },
    ]);
    expect(triggers).to.deep.equal([
      { type: 'sentry', config: { event: 'issue.created', project_slugs: [], min_level: null } },
      { type: 'sentry', config: { event: 'event_alert.triggered', project_slugs: ['backend', 'web_app'], min_level: 'warning' } },
      { type: 'sentry', config: { event: 'error.created', project_slugs: [], min_level: null } },
    ]);
  });

  it('refuses unknown events, fields, levels and bad or duplicate project slugs, naming the field', () => {
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{}, /^body\.triggers\.0\.config\.event: a sentry trigger's event must be one of event_alert\.triggered, issue\.created, error\.created$/],
      [{ event: 'issue.resolved' }, /config\.event: a sentry trigger's event must be one of/],
      [{ event: 'issue.created', projects: [] }, /^body\.triggers\.0\.config\.projects: unknown field$/],
      [{ event: 'issue.created', min_level: 'critical' }, /^body\.triggers\.0\.config\.min_level: must be one of debug, info, warning, error, fatal$/],
      [{ event: 'issue.created', min_level: 3 }, /config\.min_level: must be one of/],
      [{ event: 'issue.created', project_slugs: 'backend' }, /config\.project_slugs: must be an array$/],
      [{ event: 'issue.created', project_slugs: ['back end'] }, /config\.project_slugs\.0: must be a Sentry project slug/],
      [{ event: 'issue.created', project_slugs: ['api', 7] }, /config\.project_slugs\.1: must be a Sentry project slug/],
      [{ event: 'issue.created', project_slugs: ['api', 'API'] }, /config\.project_slugs: duplicate entry "API"$/],
    ];
    for (const [config, expected] of cases) expect(details(() => normaliseTriggers([{ type: 'sentry', config }])), JSON.stringify(config)).to.match(expected);
  });

  it('allows one trigger per event name, beside other providers', () => {
    expect(
      details(() =>
        normaliseTriggers([
          { type: 'sentry', config: { event: 'issue.created' } },
          { type: 'sentry', config: { event: 'issue.created', min_level: 'fatal' } },
        ]),
      ),
    ).to.equal('body.triggers: at most one trigger per event; issue.created appears more than once');
    expect(
      normaliseTriggers([
        { type: 'sentry', config: { event: 'issue.created' } },
        { type: 'github', config: { event: 'pull_request.opened' } },
        { type: 'custom', config: {} },
      ]).map((t) => t.type),
    ).to.deep.equal(['sentry', 'github', 'custom']);
  });

  it('ranks levels debug < info < warning < error < fatal; an unknown level passes only without a minimum', () => {
    expect(meetsMinLevel('error', 'error')).to.equal(true);
    expect(meetsMinLevel('fatal', 'error')).to.equal(true);
    expect(meetsMinLevel('warning', 'error')).to.equal(false);
    expect(meetsMinLevel('debug', 'info')).to.equal(false);
    expect(meetsMinLevel('ERROR', 'warning')).to.equal(true);
    expect(meetsMinLevel('sample', 'debug')).to.equal(false);
    expect(meetsMinLevel(null, 'debug')).to.equal(false);
    expect(meetsMinLevel(null, null)).to.equal(true);
    expect(meetsMinLevel('sample', null)).to.equal(true);
  });

  it('matches the listed projects only, when any are listed', () => {
    const config = { event: 'issue.created' as const, project_slugs: ['backend'], min_level: 'error' as const };
    expect(sentryTriggerMatches(config, 'backend', 'error')).to.equal(true);
    expect(sentryTriggerMatches(config, 'Backend', 'fatal')).to.equal(true);
    expect(sentryTriggerMatches(config, 'frontend', 'fatal')).to.equal(false);
    expect(sentryTriggerMatches(config, 'backend', 'warning')).to.equal(false);
    expect(sentryTriggerMatches({ ...config, project_slugs: [] }, 'anything', 'error')).to.equal(true);
  });
});
