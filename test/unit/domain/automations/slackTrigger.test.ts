import { expect } from 'chai';
import { normaliseTriggers } from '../../../../src/domain/automations/rules';
import { DomainError } from '../../../../src/domain/errors';

const slack = (config: Record<string, unknown>) => ({ type: 'slack', config });
const detailsOf = (fn: () => unknown): string => {
  try {
    fn();
  } catch (err) {
    if (err instanceof DomainError && err.kind === 'invalid') return err.details ?? '';
    throw err;
  }
  throw new Error('expected an invalid error');
};

describe('domain/automations/rules: the slack trigger', () => {
  it('fills in every channel and thread grouping by default', () => {
    expect(normaliseTriggers([slack({ event: 'message' })])).to.deep.equal([{ type: 'slack', config: { event: 'message', channel_ids: [], group_thread_replies: true } }]);
  });

  it('keeps channels and an explicit grouping choice', () => {
    expect(normaliseTriggers([slack({ event: 'message', channel_ids: ['C0123ABC', 'G77'], group_thread_replies: false })])[0]).to.deep.equal({
      type: 'slack',
      config: { event: 'message', channel_ids: ['C0123ABC', 'G77'], group_thread_replies: false },
    });
    expect(normaliseTriggers([slack({ event: 'message', channel_ids: null, group_thread_replies: null })])[0]!.config).to.deep.include({ channel_ids: [], group_thread_replies: true });
  });

  it('may sit beside triggers of other providers', () => {
    expect(normaliseTriggers([slack({ event: 'message' }), { type: 'custom', config: {} }, { type: 'cron', config: { schedule: '0 3 * * *' } }])).to.have.length(3);
  });

  it('refuses another event, unknown fields, bad channel ids, duplicates and a non-boolean grouping', () => {
    expect(detailsOf(() => normaliseTriggers([slack({})]))).to.equal("body.triggers.0.config.event: a slack trigger's event must be message");
    expect(detailsOf(() => normaliseTriggers([slack({ event: 'app_mention' })]))).to.match(/event must be message/);
    expect(detailsOf(() => normaliseTriggers([slack({ event: 'message', channels: ['C1'] })]))).to.equal('body.triggers.0.config.channels: unknown field');
    expect(detailsOf(() => normaliseTriggers([slack({ event: 'message', channel_ids: ['#general'] })]))).to.equal(
      'body.triggers.0.config.channel_ids.0: must be a Slack channel id such as C0123456789',
    );
    expect(detailsOf(() => normaliseTriggers([slack({ event: 'message', channel_ids: 'C0123' })]))).to.equal('body.triggers.0.config.channel_ids: must be an array');
    expect(detailsOf(() => normaliseTriggers([slack({ event: 'message', channel_ids: ['C0123', 'C0123'] })]))).to.match(/duplicate entry/);
    expect(detailsOf(() => normaliseTriggers([slack({ event: 'message', group_thread_replies: 'yes' })]))).to.equal('body.triggers.0.config.group_thread_replies: must be a boolean');
    expect(detailsOf(() => normaliseTriggers([slack({ event: 'message' }), slack({ event: 'message', channel_ids: ['C1234'] })]))).to.equal(
      'body.triggers: at most one slack trigger per automation',
    );
  });
});
