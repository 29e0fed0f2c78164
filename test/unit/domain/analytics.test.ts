import { expect } from 'chai';
import {
  billedMinutes,
  bucketGrid,
  bucketStart,
  dailySplit,
  gridEdges,
  MAX_BUCKETS,
  parseInstant,
  resolveRange,
  type BucketSize,
  type OverviewRange,
} from '../../../src/domain/analytics';
import { isDomainError } from '../../../src/domain/errors';

const d = (iso: string) => new Date(iso);
const grid = (bucket: BucketSize, start: string, end: string) =>
  bucketGrid({ bucket, start: d(start), end: d(end) }).map((b) => [b.label, b.from.toISOString(), b.to.toISOString()]);

function expectInvalid(fn: () => unknown, detail: RegExp) {
  try {
    fn();
  } catch (err) {
    expect(isDomainError(err, 'invalid'), String(err)).to.equal(true);
    expect((err as { details: string }).details).to.match(detail);
    return;
  }
  expect.fail('expected a 400');
}

describe('analytics: time ranges and buckets', () => {
  describe('parseInstant', () => {
    it('honours any offset exactly and normalises to UTC', () => {
      expect(parseInstant('2026-03-01T00:30:00+02:00')!.toISOString()).to.equal('2026-02-28T22:30:00.000Z');
      expect(parseInstant('2026-03-01T00:30:00-09:30')!.toISOString()).to.equal('2026-03-01T10:00:00.000Z');
      expect(parseInstant('2026-03-01T00:30:00.250Z')!.toISOString()).to.equal('2026-03-01T00:30:00.250Z');
    });

    it('reads an unencoded "+" (a space after query decoding) as the offset sign', () => {
      expect(parseInstant('2026-03-01T00:30:00 05:30')!.toISOString()).to.equal('2026-02-28T19:00:00.000Z');
    });

    it('refuses instants without an offset, impossible dates and years before 1970', () => {
      for (const bad of ['2026-03-01T00:00:00', '2026-03-01', '2026-02-30T00:00:00Z', '2026-13-01T00:00:00Z', '2026-01-01T24:00:00Z', '0099-01-01T00:00:00Z', 'yesterday', ' 2026-03-01T00:00:00Z']) {
        expect(parseInstant(bad), bad).to.equal(null);
      }
      expect(parseInstant('2028-02-29T12:00:00Z')).not.to.equal(null);
    });
  });

  describe('resolveRange', () => {
    const now = d('2026-07-15T12:00:00Z');

    it('defaults to day buckets over the 30 days before now', () => {
      const r = resolveRange({}, now);
      expect(r).to.deep.equal({ bucket: 'day', start: d('2026-06-15T12:00:00Z'), end: now });
    });

    it('defaults start to 30 days before a given end', () => {
      expect(resolveRange({ end: '2026-01-31T00:00:00Z' }, now).start.toISOString()).to.equal('2026-01-01T00:00:00.000Z');
    });

    it('refuses start at or after end, and malformed instants, naming the field', () => {
      expectInvalid(() => resolveRange({ start: '2026-07-01T00:00:00Z', end: '2026-07-01T00:00:00Z' }, now), /query\.start: must be before/);
      expectInvalid(() => resolveRange({ start: '2026-07-02T00:00:00Z', end: '2026-07-01T00:00:00Z' }, now), /query\.start/);
      expectInvalid(() => resolveRange({ end: 'tomorrow' }, now), /query\.end: must be an ISO 8601 date-time/);
    });

    it(`caps a range at ${MAX_BUCKETS} buckets of its size`, () => {
      expect(resolveRange({ start: '2025-01-01T00:00:00Z', end: '2026-02-05T00:00:00Z' }, now).bucket).to.equal('day'); // 400 days
      expectInvalid(() => resolveRange({ start: '2025-01-01T00:00:00Z', end: '2026-02-05T00:00:01Z' }, now), /more than 400 day buckets/);
      // 401 days is fine in weeks; a month range counts its calendar months.
      expect(resolveRange({ bucket: 'week', start: '2025-01-01T00:00:00Z', end: '2026-02-06T00:00:00Z' }, now).bucket).to.equal('week');
      expect(resolveRange({ bucket: 'month', start: '1990-01-15T00:00:00Z', end: '2023-05-01T00:00:00Z' }, now).bucket).to.equal('month'); // 400 months
      expectInvalid(() => resolveRange({ bucket: 'month', start: '1990-01-15T00:00:00Z', end: '2023-05-01T00:00:01Z' }, now), /more than 400 month/);
    });
  });

  describe('the UTC grid', () => {
    it('starts weeks on Monday 00:00 UTC, whatever the weekday of the instant', () => {
      expect(bucketStart('week', d('2026-07-19T23:59:59Z')).toISOString()).to.equal('2026-07-13T00:00:00.000Z'); // a Sunday
      expect(bucketStart('week', d('2026-07-13T00:00:00Z')).toISOString()).to.equal('2026-07-13T00:00:00.000Z'); // a Monday
      expect(bucketStart('week', d('2026-01-01T10:00:00Z')).toISOString()).to.equal('2025-12-29T00:00:00.000Z'); // across a year
    });

    it('cuts months at their own lengths, leap February included', () => {
      expect(grid('month', '2028-01-01T00:00:00Z', '2028-04-01T00:00:00Z')).to.deep.equal([
        ['2028-01-01', '2028-01-01T00:00:00.000Z', '2028-02-01T00:00:00.000Z'],
        ['2028-02-01', '2028-02-01T00:00:00.000Z', '2028-03-01T00:00:00.000Z'],
        ['2028-03-01', '2028-03-01T00:00:00.000Z', '2028-04-01T00:00:00.000Z'],
      ]);
      const feb2027 = bucketGrid({ bucket: 'month', start: d('2027-02-01T00:00:00Z'), end: d('2027-03-01T00:00:00Z') });
      expect(feb2027[0]!.to.getTime() - feb2027[0]!.from.getTime()).to.equal(28 * 86_400_000);
    });

    it('clips the first and last buckets to the range and labels them with their own start', () => {
      expect(grid('week', '2026-07-15T09:00:00Z', '2026-07-28T06:00:00Z')).to.deep.equal([
        ['2026-07-13', '2026-07-15T09:00:00.000Z', '2026-07-20T00:00:00.000Z'],
        ['2026-07-20', '2026-07-20T00:00:00.000Z', '2026-07-27T00:00:00.000Z'],
        ['2026-07-27', '2026-07-27T00:00:00.000Z', '2026-07-28T06:00:00.000Z'],
      ]);
    });

    it('puts offsets on a UTC grid: a local midnight at +02:00 is 22:00 of the day before', () => {
      const r = resolveRange({ start: '2026-07-01T00:00:00+02:00', end: '2026-07-03T00:00:00+02:00' }, d('2026-08-01T00:00:00Z'));
      expect(bucketGrid(r).map((b) => [b.label, b.from.toISOString(), b.to.toISOString()])).to.deep.equal([
        ['2026-06-30', '2026-06-30T22:00:00.000Z', '2026-07-01T00:00:00.000Z'],
        ['2026-07-01', '2026-07-01T00:00:00.000Z', '2026-07-02T00:00:00.000Z'],
        ['2026-07-02', '2026-07-02T00:00:00.000Z', '2026-07-02T22:00:00.000Z'],
      ]);
    });

    it('does not add an empty bucket when the end falls on an edge', () => {
      expect(grid('day', '2026-07-01T00:00:00Z', '2026-07-03T00:00:00Z').map((b) => b[0])).to.deep.equal(['2026-07-01', '2026-07-02']);
    });

    it('lists the edges the SQL bins by: start, inner edges, end', () => {
      const r: OverviewRange = { bucket: 'day', start: d('2026-07-01T12:00:00Z'), end: d('2026-07-03T06:00:00Z') };
      expect(gridEdges(bucketGrid(r)).map((e) => e.toISOString())).to.deep.equal([
        '2026-07-01T12:00:00.000Z',
        '2026-07-02T00:00:00.000Z',
        '2026-07-03T00:00:00.000Z',
        '2026-07-03T06:00:00.000Z',
      ]);
    });
  });

  describe('reading whole days from rollups', () => {
    const split = (start: string, end: string) => {
      const r = dailySplit(d(start), d(end));
      return { days: r.days, partial: r.partial.map(([a, b]) => [a.toISOString(), b.toISOString()]) };
    };

    it('takes the whole UTC days from the rollup and the part-days at both ends from the rows', () => {
      expect(split('2026-03-01T05:00:00Z', '2026-03-04T07:00:00Z')).to.deep.equal({
        days: { from: '2026-03-02', to: '2026-03-04' },
        partial: [
          ['2026-03-01T05:00:00.000Z', '2026-03-02T00:00:00.000Z'],
          ['2026-03-04T00:00:00.000Z', '2026-03-04T07:00:00.000Z'],
        ],
      });
    });

    it('leaves the part-days empty when the range starts and ends at midnight', () => {
      expect(split('2026-03-01T00:00:00Z', '2026-03-03T00:00:00Z')).to.deep.equal({
        days: { from: '2026-03-01', to: '2026-03-03' },
        partial: [
          ['2026-03-01T00:00:00.000Z', '2026-03-01T00:00:00.000Z'],
          ['2026-03-03T00:00:00.000Z', '2026-03-03T00:00:00.000Z'],
        ],
      });
    });

    it('reads a range within one day (or across one midnight) from the rows alone', () => {
      expect(split('2026-03-01T05:00:00Z', '2026-03-01T07:00:00Z').days).to.deep.equal({ from: '2026-03-01', to: '2026-03-01' });
      const across = split('2026-03-01T22:00:00Z', '2026-03-02T02:00:00Z');
      expect(across.days.from).to.equal(across.days.to);
      expect(across.partial[0]).to.deep.equal(['2026-03-01T22:00:00.000Z', '2026-03-02T02:00:00.000Z']);
    });
  });

  describe('billed minutes', () => {
    const now = d('2026-08-01T00:00:00Z');
    const always = [d('2000-01-01T00:00:00Z'), d('2100-01-01T00:00:00Z')] as const;
    const interval = (s: string, e: string | null) => ({ startedAt: d(s), endedAt: e === null ? null : d(e) });

    it('rounds each interval up to whole minutes', () => {
      expect(billedMinutes(interval('2026-07-01T10:00:00Z', '2026-07-01T10:00:01Z'), ...always, now)).to.equal(1);
      expect(billedMinutes(interval('2026-07-01T10:00:00Z', '2026-07-01T10:01:00Z'), ...always, now)).to.equal(1);
      expect(billedMinutes(interval('2026-07-01T10:00:00Z', '2026-07-01T10:01:00.001Z'), ...always, now)).to.equal(2);
      expect(billedMinutes(interval('2026-07-01T10:00:00Z', '2026-07-01T10:00:00Z'), ...always, now)).to.equal(0);
    });

    it('splits an interval across a bucket edge without billing a minute twice', () => {
      // 23:59:30 → 00:01:10: 100 s, billed 2 minutes; the minute starting 23:59:30 belongs to the first day.
      const iv = interval('2026-07-01T23:59:30Z', '2026-07-02T00:01:10Z');
      const first = billedMinutes(iv, d('2026-07-01T00:00:00Z'), d('2026-07-02T00:00:00Z'), now);
      const second = billedMinutes(iv, d('2026-07-02T00:00:00Z'), d('2026-07-03T00:00:00Z'), now);
      expect([first, second]).to.deep.equal([1, 1]);
      expect(first + second).to.equal(billedMinutes(iv, ...always, now));
    });

    it('sums over any grid to the interval total', () => {
      const iv = interval('2026-06-28T17:43:12.345Z', '2026-08-03T02:17:59Z');
      const whole = billedMinutes(iv, ...always, d('2026-09-01T00:00:00Z'));
      for (const bucket of ['day', 'week', 'month'] as const) {
        const buckets = bucketGrid({ bucket, start: d('2026-06-01T03:00:00+05:00'), end: d('2026-09-01T00:00:00Z') });
        const parts = buckets.map((b) => billedMinutes(iv, b.from, b.to, d('2026-09-01T00:00:00Z')));
        expect(parts.reduce((a, b) => a + b, 0), bucket).to.equal(whole);
      }
    });

    it('counts only minutes that begin in the range, and an open interval up to now', () => {
      const iv = interval('2026-07-01T10:00:00Z', '2026-07-01T11:00:00Z');
      expect(billedMinutes(iv, d('2026-07-01T10:30:00Z'), d('2026-07-01T10:45:00Z'), now)).to.equal(15);
      expect(billedMinutes(iv, d('2026-07-01T11:00:00Z'), d('2026-07-01T12:00:00Z'), now)).to.equal(0);
      const open = interval('2026-07-31T23:00:00Z', null);
      expect(billedMinutes(open, ...always, now)).to.equal(60);
      expect(billedMinutes(open, ...always, d('2026-07-31T23:00:00.500Z'))).to.equal(1);
    });
  });
});
