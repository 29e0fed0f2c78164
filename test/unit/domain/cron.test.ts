import { expect } from 'chai';
import { CronError, describeNext, isValidTimeZone, nextFireAt, parseCron } from '../../../src/domain/cron';

/** The next `count` fire times as ISO strings. */
function next(expression: string, timeZone: string, after: string, count: number): string[] {
  return describeNext(expression, timeZone, new Date(after), count).map((d) => d.toISOString());
}

function parseError(expression: string): string {
  try {
    parseCron(expression);
  } catch (err) {
    expect(err).to.be.instanceOf(CronError);
    expect(err).to.be.instanceOf(Error);
    expect((err as Error).name).to.equal('CronError');
    return (err as Error).message;
  }
  throw new Error(`expected "${expression}" to be rejected`);
}

describe('domain/cron', () => {
  describe('parseCron', () => {
    it('parses *, numbers, ranges, steps and lists', () => {
      const s = parseCron('1,2,5-7 */6 1-10/3 * *');
      expect(s.minutes).to.deep.equal([1, 2, 5, 6, 7]);
      expect(s.hours).to.deep.equal([0, 6, 12, 18]);
      expect(s.daysOfMonth).to.deep.equal([1, 4, 7, 10]);
      expect(s.months).to.deep.equal([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
      expect(s.daysOfWeek).to.deep.equal([0, 1, 2, 3, 4, 5, 6]);
      expect(s.domStar).to.equal(false);
      expect(s.dowStar).to.equal(true);
    });

    it('parses every value of a star field with its bounds', () => {
      const s = parseCron('* * * * *');
      expect(s.minutes).to.have.length(60);
      expect(s.minutes[0]).to.equal(0);
      expect(s.minutes[59]).to.equal(59);
      expect(s.hours).to.have.length(24);
      expect(s.daysOfMonth[0]).to.equal(1);
      expect(s.daysOfMonth[30]).to.equal(31);
      expect(s.domStar && s.dowStar).to.equal(true);
    });

    it('parses month and weekday names case-insensitively, also in ranges and with steps', () => {
      const s = parseCron('0 0 * jan-MAR/2,Dec mon-Fri');
      expect(s.months).to.deep.equal([1, 3, 12]);
      expect(s.daysOfWeek).to.deep.equal([1, 2, 3, 4, 5]);
      expect(parseCron('0 0 * * SUN,sat').daysOfWeek).to.deep.equal([0, 6]);
      expect(parseCron('0 0 * * sun-sat').daysOfWeek).to.deep.equal([0, 1, 2, 3, 4, 5, 6]);
    });

    it('treats day-of-week 0 and 7 as Sunday', () => {
      expect(parseCron('0 0 * * 7').daysOfWeek).to.deep.equal([0]);
      expect(parseCron('0 0 * * 0,7').daysOfWeek).to.deep.equal([0]);
      expect(parseCron('0 0 * * 5-7').daysOfWeek).to.deep.equal([0, 5, 6]);
    });

    it('deduplicates and sorts list values, tolerates surrounding and repeated whitespace', () => {
      const s = parseCron('  30,10,10,20\t 5-6,1   * * *  ');
      expect(s.minutes).to.deep.equal([10, 20, 30]);
      expect(s.hours).to.deep.equal([1, 5, 6]);
      expect(s.expression).to.equal('30,10,10,20\t 5-6,1   * * *');
    });

    it('marks a field starting with * as unrestricted for the day rule (Vixie)', () => {
      const s = parseCron('0 0 */2 * 1');
      expect(s.domStar).to.equal(true);
      expect(s.dowStar).to.equal(false);
      expect(s.daysOfMonth).to.deep.equal([1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31]);
    });

    it('accepts the simple macros', () => {
      expect(parseCron('@hourly').minutes).to.deep.equal([0]);
      expect(parseCron('@hourly').hours).to.have.length(24);
      expect(parseCron('@DAILY').hours).to.deep.equal([0]);
      expect(parseCron('@weekly').daysOfWeek).to.deep.equal([0]);
      expect(parseCron('@monthly').daysOfMonth).to.deep.equal([1]);
      expect(parseCron('@yearly').months).to.deep.equal([1]);
    });

    it('rejects a wrong number of fields', () => {
      expect(parseError('')).to.match(/empty/);
      expect(parseError('   ')).to.match(/empty/);
      expect(parseError('* * * *')).to.match(/exactly 5 fields.*got 4/);
      expect(parseError('0 * * * * *')).to.match(/exactly 5 fields.*got 6/);
      expect(parseError('*')).to.match(/exactly 5 fields/);
    });

    it('rejects out-of-range values, naming the field and its range', () => {
      expect(parseError('61 * * * *')).to.equal('minute field "61" is out of range 0-59');
      expect(parseError('60 * * * *')).to.equal('minute field "60" is out of range 0-59');
      expect(parseError('* 24 * * *')).to.equal('hour field "24" is out of range 0-23');
      expect(parseError('* * 0 * *')).to.equal('day-of-month field "0" is out of range 1-31');
      expect(parseError('* * 32 * *')).to.equal('day-of-month field "32" is out of range 1-31');
      expect(parseError('* * * 0 *')).to.equal('month field "0" is out of range 1-12');
      expect(parseError('* * * 13 *')).to.equal('month field "13" is out of range 1-12');
      expect(parseError('* * * * 8')).to.equal('day-of-week field "8" is out of range 0-7');
      expect(parseError('0-60 * * * *')).to.equal('minute field "60" is out of range 0-59');
      expect(parseError('1,2,99 * * * *')).to.match(/minute field "99" is out of range/);
    });

    it('rejects bad steps', () => {
      expect(parseError('*/0 * * * *')).to.match(/minute field "\*\/0" has a bad step "0"/);
      expect(parseError('*/60 * * * *')).to.match(/bad step "60" \(must be 1-59\)/);
      expect(parseError('* */x * * *')).to.match(/hour field "\*\/x" has a bad step "x"/);
      expect(parseError('1-5/ * * * *')).to.match(/bad step ""/);
      expect(parseError('*/-1 * * * *')).to.match(/bad step "-1"/);
      expect(parseError('*/2/3 * * * *')).to.match(/more than one step/);
      expect(parseError('5/15 * * * *')).to.match(/a step needs "\*" or a range/);
    });

    it('rejects garbage', () => {
      expect(parseError('a * * * *')).to.match(/minute field "a": "a" is not a number/);
      expect(parseError('foo bar baz qux quux')).to.match(/minute field/);
      expect(parseError('-1 * * * *')).to.match(/minute field/);
      expect(parseError('1-2-3 * * * *')).to.match(/not a valid range/);
      expect(parseError('5-2 * * * *')).to.match(/backwards range/);
      expect(parseError('1,,2 * * * *')).to.match(/empty list item/);
      expect(parseError('1, * * * *')).to.match(/empty list item/);
      expect(parseError('* * * FOO *')).to.match(/month field "FOO": "FOO" is not a number or a name/);
      expect(parseError('* * * * MON-FOO')).to.match(/day-of-week field/);
      expect(parseError('* * * * JAN')).to.match(/day-of-week field/);
      expect(parseError('* * * MON *')).to.match(/month field/);
      expect(parseError('* * * * MONDAY')).to.match(/day-of-week field/);
      expect(parseError('1.5 * * * *')).to.match(/minute field/);
      expect(parseError('? * * * *')).to.match(/minute field/);
      expect(parseError('@reboot')).to.match(/unknown cron macro/);
      expect(parseError('@every 5m')).to.match(/unknown cron macro/);
    });

    it('rejects a schedule that can never fire', () => {
      expect(parseError('0 0 30 2 *')).to.match(/never fires/);
      expect(parseError('0 0 31 4,6,9,11 *')).to.match(/never fires/);
      expect(parseError('0 0 30,31 feb *')).to.match(/never fires/);
      // With both day fields restricted the OR rule makes it fire on Mondays.
      expect(() => parseCron('0 0 30 2 MON')).not.to.throw();
    });
  });

  describe('isValidTimeZone', () => {
    it('accepts IANA names', () => {
      for (const tz of ['UTC', 'Etc/UTC', 'Europe/Berlin', 'America/New_York', 'Asia/Kolkata', 'Australia/Lord_Howe']) {
        expect(isValidTimeZone(tz), tz).to.equal(true);
      }
    });

    it('rejects empty strings, garbage, offsets and non-strings', () => {
      for (const tz of ['', ' ', 'garbage', 'Mars/Olympus_Mons', 'Europe/', '+01:00', ' Europe/Berlin', 'Europe/Berlin ']) {
        expect(isValidTimeZone(tz), JSON.stringify(tz)).to.equal(false);
      }
      expect(isValidTimeZone(undefined as unknown as string)).to.equal(false);
    });
  });

  describe('nextFireAt in UTC', () => {
    it('fires every minute, strictly after `after`', () => {
      expect(next('* * * * *', 'UTC', '2026-01-01T00:00:00Z', 3)).to.deep.equal([
        '2026-01-01T00:01:00.000Z',
        '2026-01-01T00:02:00.000Z',
        '2026-01-01T00:03:00.000Z',
      ]);
      expect(next('* * * * *', 'UTC', '2026-01-01T00:00:59.999Z', 1)).to.deep.equal(['2026-01-01T00:01:00.000Z']);
      expect(next('* * * * *', 'UTC', '2026-01-01T23:59:30Z', 1)).to.deep.equal(['2026-01-02T00:00:00.000Z']);
    });

    it('runs a minute-step schedule across the hour', () => {
      expect(next('*/15 * * * *', 'UTC', '2026-05-05T10:07:00Z', 4)).to.deep.equal([
        '2026-05-05T10:15:00.000Z',
        '2026-05-05T10:30:00.000Z',
        '2026-05-05T10:45:00.000Z',
        '2026-05-05T11:00:00.000Z',
      ]);
    });

    it('skips to the next allowed hour, day and weekday', () => {
      // 2026-01-02 is a Friday.
      expect(next('0 9 * * MON-FRI', 'UTC', '2026-01-02T10:00:00Z', 2)).to.deep.equal([
        '2026-01-05T09:00:00.000Z',
        '2026-01-06T09:00:00.000Z',
      ]);
      expect(next('30 8-10/2 * * *', 'UTC', '2026-01-01T08:30:00Z', 3)).to.deep.equal([
        '2026-01-01T10:30:00.000Z',
        '2026-01-02T08:30:00.000Z',
        '2026-01-02T10:30:00.000Z',
      ]);
    });

    it('rolls over the end of a month, skipping months without the day', () => {
      expect(next('0 0 31 * *', 'UTC', '2026-04-01T00:00:00Z', 3)).to.deep.equal([
        '2026-05-31T00:00:00.000Z',
        '2026-07-31T00:00:00.000Z',
        '2026-08-31T00:00:00.000Z',
      ]);
      expect(next('0 12 1 * *', 'UTC', '2026-01-31T23:59:00Z', 1)).to.deep.equal(['2026-02-01T12:00:00.000Z']);
    });

    it('rolls over the end of the year', () => {
      expect(next('0 0 1 1 *', 'UTC', '2026-12-31T23:59:59Z', 1)).to.deep.equal(['2027-01-01T00:00:00.000Z']);
      expect(next('59 23 31 12 *', 'UTC', '2026-12-31T23:59:00Z', 1)).to.deep.equal(['2027-12-31T23:59:00.000Z']);
      expect(next('* * * * *', 'UTC', '2026-12-31T23:59:00Z', 1)).to.deep.equal(['2027-01-01T00:00:00.000Z']);
    });

    it('finds the next leap day', () => {
      expect(next('0 0 29 2 *', 'UTC', '2026-01-01T00:00:00Z', 2)).to.deep.equal([
        '2028-02-29T00:00:00.000Z',
        '2032-02-29T00:00:00.000Z',
      ]);
    });

    it('uses month and weekday names', () => {
      expect(next('0 12 1 jan,Jul *', 'UTC', '2026-02-01T00:00:00Z', 2)).to.deep.equal([
        '2026-07-01T12:00:00.000Z',
        '2027-01-01T12:00:00.000Z',
      ]);
      // 2026-01-04 is a Sunday; 7 and SUN are the same day.
      expect(next('0 0 * * 7', 'UTC', '2026-01-01T00:00:00Z', 1)).to.deep.equal(['2026-01-04T00:00:00.000Z']);
      expect(next('0 0 * * sun', 'UTC', '2026-01-01T00:00:00Z', 1)).to.deep.equal(['2026-01-04T00:00:00.000Z']);
    });

    it('ORs day-of-month and day-of-week when both are restricted', () => {
      // Mondays of January 2026: 5, 12, 19, 26; plus the 1st and 15th of each month.
      expect(next('0 0 1,15 * MON', 'UTC', '2026-01-01T00:00:00Z', 6)).to.deep.equal([
        '2026-01-05T00:00:00.000Z',
        '2026-01-12T00:00:00.000Z',
        '2026-01-15T00:00:00.000Z',
        '2026-01-19T00:00:00.000Z',
        '2026-01-26T00:00:00.000Z',
        '2026-02-01T00:00:00.000Z',
      ]);
      // Mondays of February (there is no February 30th).
      expect(next('0 0 30 2 MON', 'UTC', '2026-01-01T00:00:00Z', 2)).to.deep.equal(['2026-02-02T00:00:00.000Z', '2026-02-09T00:00:00.000Z']);
    });

    it('ANDs them when either field starts with * (Vixie)', () => {
      expect(next('0 0 * * MON', 'UTC', '2026-01-01T00:00:00Z', 2)).to.deep.equal([
        '2026-01-05T00:00:00.000Z',
        '2026-01-12T00:00:00.000Z',
      ]);
      // Odd days that are Mondays.
      expect(next('0 0 */2 * MON', 'UTC', '2026-01-01T00:00:00Z', 3)).to.deep.equal([
        '2026-01-05T00:00:00.000Z',
        '2026-01-19T00:00:00.000Z',
        '2026-02-09T00:00:00.000Z',
      ]);
      expect(next('0 0 13 * */5', 'UTC', '2026-01-01T00:00:00Z', 1)).to.deep.equal(['2026-02-13T00:00:00.000Z']);
    });

    it('is efficient: iterates by fields, not by minutes', () => {
      const start = performance.now();
      const leap = parseCron('0 0 29 2 *');
      let after = new Date('2026-01-01T00:00:00Z');
      for (let i = 0; i < 25; i += 1) after = nextFireAt(leap, 'Europe/Berlin', after);
      expect(after.getUTCFullYear()).to.equal(2128);
      expect(describeNext('* * * * *', 'America/New_York', new Date('2026-03-08T00:00:00Z'), 2000)).to.have.length(2000);
      // Minute by minute, a century of leap days is some 53 million steps (minutes of work); by
      // fields it is milliseconds. The bound tells the two apart on any machine, however busy.
      expect(performance.now() - start).to.be.below(20_000);
    });

    it('rejects an invalid time zone and an invalid date', () => {
      const s = parseCron('* * * * *');
      expect(() => nextFireAt(s, 'Mars/Olympus_Mons', new Date('2026-01-01T00:00:00Z'))).to.throw(CronError, /time zone/);
      expect(() => nextFireAt(s, '', new Date('2026-01-01T00:00:00Z'))).to.throw(CronError, /time zone/);
      expect(() => nextFireAt(s, 'UTC', new Date('nonsense'))).to.throw(CronError, /not a valid date/);
    });

    it('throws "never fires" after a bounded search for a hand-built impossible schedule', () => {
      const impossible = { ...parseCron('0 0 30 * *'), months: [2], expression: '0 0 30 2 *' };
      expect(() => nextFireAt(impossible, 'UTC', new Date('2026-01-01T00:00:00Z'))).to.throw(CronError, /never fires/);
    });
  });

  describe('nextFireAt in Europe/Berlin', () => {
    it('uses the local wall clock (CET and CEST)', () => {
      expect(next('0 9 * * *', 'Europe/Berlin', '2026-01-15T12:00:00Z', 1)).to.deep.equal(['2026-01-16T08:00:00.000Z']);
      expect(next('0 9 * * *', 'Europe/Berlin', '2026-07-15T12:00:00Z', 1)).to.deep.equal(['2026-07-16T07:00:00.000Z']);
      // Midnight local on New Year is still 2026 in UTC.
      expect(next('0 0 1 1 *', 'Europe/Berlin', '2026-06-01T00:00:00Z', 1)).to.deep.equal(['2026-12-31T23:00:00.000Z']);
    });

    it('spring forward (2026-03-29, 02:00 -> 03:00): a skipped time fires once at 03:00', () => {
      expect(next('30 2 * * *', 'Europe/Berlin', '2026-03-28T12:00:00Z', 3)).to.deep.equal([
        '2026-03-29T01:00:00.000Z', // 03:00 CEST, the first instant after the gap
        '2026-03-30T00:30:00.000Z', // 02:30 CEST
        '2026-03-31T00:30:00.000Z',
      ]);
      expect(next('0 9 * * *', 'Europe/Berlin', '2026-03-28T12:00:00Z', 1)).to.deep.equal(['2026-03-29T07:00:00.000Z']);
      expect(next('30 2,3 * * *', 'Europe/Berlin', '2026-03-28T12:00:00Z', 3)).to.deep.equal([
        '2026-03-29T01:00:00.000Z',
        '2026-03-29T01:30:00.000Z',
        '2026-03-30T00:30:00.000Z',
      ]);
    });

    it('fall back (2026-10-25, 03:00 -> 02:00): a repeated time fires once, at its first occurrence', () => {
      expect(next('30 2 * * *', 'Europe/Berlin', '2026-10-24T12:00:00Z', 3)).to.deep.equal([
        '2026-10-25T00:30:00.000Z', // 02:30 CEST
        '2026-10-26T01:30:00.000Z', // 02:30 CET
        '2026-10-27T01:30:00.000Z',
      ]);
      expect(next('*/30 * * * *', 'Europe/Berlin', '2026-10-25T00:00:00Z', 3)).to.deep.equal([
        '2026-10-25T00:30:00.000Z', // 02:30 CEST
        '2026-10-25T02:00:00.000Z', // 03:00 CET; 02:00 and 02:30 CET are not repeated
        '2026-10-25T02:30:00.000Z',
      ]);
    });

    it('does not fire again when `after` lies in the repeated hour', () => {
      // 01:15Z is 02:15 CET, the second pass; 02:30 already fired at 00:30Z.
      expect(next('30 2 * * *', 'Europe/Berlin', '2026-10-25T01:15:00Z', 1)).to.deep.equal(['2026-10-26T01:30:00.000Z']);
      expect(next('45 * * * *', 'Europe/Berlin', '2026-10-25T01:15:00Z', 1)).to.deep.equal(['2026-10-25T02:45:00.000Z']);
    });
  });

  describe('nextFireAt in America/New_York', () => {
    it('spring forward (2026-03-08, 02:00 -> 03:00): a skipped time fires once at 03:00 EDT', () => {
      expect(next('30 2 * * *', 'America/New_York', '2026-03-07T12:00:00Z', 3)).to.deep.equal([
        '2026-03-08T07:00:00.000Z',
        '2026-03-09T06:30:00.000Z',
        '2026-03-10T06:30:00.000Z',
      ]);
      // Four skipped times collapse into one fire.
      expect(next('*/15 2 * * *', 'America/New_York', '2026-03-07T12:00:00Z', 3)).to.deep.equal([
        '2026-03-08T07:00:00.000Z',
        '2026-03-09T06:00:00.000Z',
        '2026-03-09T06:15:00.000Z',
      ]);
      // 02:00 (skipped) and 03:00 are the same instant: one fire, not two.
      expect(next('0 * * * *', 'America/New_York', '2026-03-08T06:30:00Z', 2)).to.deep.equal([
        '2026-03-08T07:00:00.000Z',
        '2026-03-08T08:00:00.000Z',
      ]);
      expect(next('0 0 * * *', 'America/New_York', '2026-03-07T12:00:00Z', 2)).to.deep.equal([
        '2026-03-08T05:00:00.000Z',
        '2026-03-09T04:00:00.000Z',
      ]);
    });

    it('fall back (2026-11-01, 02:00 -> 01:00): a repeated time fires once, at its first occurrence', () => {
      expect(next('30 1 * * *', 'America/New_York', '2026-10-31T12:00:00Z', 3)).to.deep.equal([
        '2026-11-01T05:30:00.000Z', // 01:30 EDT
        '2026-11-02T06:30:00.000Z', // 01:30 EST
        '2026-11-03T06:30:00.000Z',
      ]);
      expect(next('0 * * * *', 'America/New_York', '2026-11-01T04:30:00Z', 3)).to.deep.equal([
        '2026-11-01T05:00:00.000Z', // 01:00 EDT
        '2026-11-01T07:00:00.000Z', // 02:00 EST; 01:00 EST is not repeated
        '2026-11-01T08:00:00.000Z',
      ]);
      expect(next('30 1 * * *', 'America/New_York', '2026-11-01T06:10:00Z', 1)).to.deep.equal(['2026-11-02T06:30:00.000Z']);
    });

    it('handles a half-hour DST shift (Australia/Lord_Howe, 2026-10-04 02:00 -> 02:30)', () => {
      expect(next('15 2 * * *', 'Australia/Lord_Howe', '2026-10-03T00:00:00Z', 2)).to.deep.equal([
        '2026-10-03T15:30:00.000Z', // 02:30 +11:00, the end of the gap
        '2026-10-04T15:15:00.000Z',
      ]);
    });
  });

  describe('describeNext', () => {
    it('returns the requested number of fire times, and none for 0', () => {
      expect(next('0 0 * * *', 'UTC', '2026-01-01T00:00:00Z', 3)).to.have.length(3);
      expect(next('0 0 * * *', 'UTC', '2026-01-01T00:00:00Z', 0)).to.deep.equal([]);
    });

    it('throws CronError for a bad expression', () => {
      expect(() => describeNext('61 * * * *', 'UTC', new Date('2026-01-01T00:00:00Z'), 1)).to.throw(CronError, /out of range/);
    });
  });
});
