import { expect } from 'chai';
import { AutomationSchedule, FIRES_PER_RUN, type LoadedSchedule } from '../../../workflows/automationState';

const now = new Date('2026-03-07T15:00:00Z');
const cron = (expression: string, timezone = 'UTC'): LoadedSchedule => ({ exists: true, enabled: true, cron: { expression, timezone } });

describe('workflows/automationState', () => {
  it('sleeps until the next fire time in the automation’s time zone', () => {
    const schedule = new AutomationSchedule();
    expect(schedule.plan(cron('0 9 * * *'), now)).to.deep.equal({ kind: 'sleep', at: new Date('2026-03-08T09:00:00Z') });
    // 09:00 in New York on 2026-03-08 is after the spring-forward jump: 13:00 UTC.
    expect(schedule.plan(cron('0 9 * * *', 'America/New_York'), now)).to.deep.equal({ kind: 'sleep', at: new Date('2026-03-08T13:00:00Z') });
  });

  it('ends for a deleted automation and waits while disabled, without cron, or with a cron that no longer parses', () => {
    const schedule = new AutomationSchedule();
    expect(schedule.plan({ exists: false, enabled: false, cron: null }, now)).to.deep.equal({ kind: 'end' });
    expect(schedule.plan({ ...cron('* * * * *'), enabled: false }, now)).to.deep.equal({ kind: 'wait' });
    expect(schedule.plan({ exists: true, enabled: true, cron: null }, now)).to.deep.equal({ kind: 'wait' });
    expect(schedule.plan(cron('61 * * * *'), now)).to.deep.equal({ kind: 'wait' });
    expect(schedule.plan(cron('0 0 30 2 *'), now)).to.deep.equal({ kind: 'wait' });
  });

  it('remembers a change until the loop reads the schedule again', () => {
    const schedule = new AutomationSchedule();
    schedule.configChanged();
    expect(schedule.changed).to.equal(true);
    // A plan does not forget a change that arrived while the schedule was being read.
    schedule.plan(cron('* * * * *'), now);
    expect(schedule.changed).to.equal(true);
    schedule.reading();
    expect(schedule.changed).to.equal(false);
  });

  it('is full every FIRES_PER_RUN fires, counting those carried over from the previous run', () => {
    const schedule = new AutomationSchedule(FIRES_PER_RUN - 2);
    expect(schedule.full).to.equal(false);
    schedule.fired();
    expect(schedule.full).to.equal(false);
    schedule.fired();
    expect([schedule.full, schedule.fires]).to.deep.equal([true, FIRES_PER_RUN]);
    schedule.fired();
    expect(schedule.full).to.equal(false);
    expect(new AutomationSchedule(0).full).to.equal(false);
  });
});
