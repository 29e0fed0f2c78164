// The next fire time of a schedule: walk the wall clock field by field, then find its instant.

import { CronError, parseCron, type CronSchedule } from './parse';
import { instantOf, isValidTimeZone, MINUTE, wallMs } from './zones';

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

function dayMatches(s: CronSchedule, year: number, month: number, day: number): boolean {
  const dom = s.daysOfMonth.includes(day);
  const dow = s.daysOfWeek.includes(new Date(Date.UTC(year, month - 1, day)).getUTCDay());
  return s.domStar || s.dowStar ? dom && dow : dom || dow;
}

/** The first value of `list` >= v, or undefined. */
function firstAtLeast(list: readonly number[], v: number): number | undefined {
  return list.find((x) => x >= v);
}

/** The first matching wall time at or after `from` (civil ms, whole minute), or null past maxYear. */
function nextCivilMatch(s: CronSchedule, from: number, maxYear: number): number | null {
  const start = new Date(from);
  let y = start.getUTCFullYear();
  let mo = start.getUTCMonth() + 1;
  let d = start.getUTCDate();
  let h = start.getUTCHours();
  let mi = start.getUTCMinutes();
  const nextMonth = (): void => {
    mo += 1;
    d = 1;
    h = 0;
    mi = 0;
    if (mo > 12) {
      mo = 1;
      y += 1;
    }
  };
  const nextDay = (): void => {
    d += 1;
    h = 0;
    mi = 0;
    if (d > daysInMonth(y, mo)) nextMonth();
  };
  for (;;) {
    if (y > maxYear) return null;
    if (!s.months.includes(mo)) {
      const m = firstAtLeast(s.months, mo);
      if (m === undefined) {
        y += 1;
        mo = s.months[0]!;
      } else {
        mo = m;
      }
      d = 1;
      h = 0;
      mi = 0;
      continue;
    }
    if (!dayMatches(s, y, mo, d)) {
      nextDay();
      continue;
    }
    const hour = firstAtLeast(s.hours, h);
    if (hour === undefined) {
      nextDay();
      continue;
    }
    if (hour !== h) {
      h = hour;
      mi = 0;
    }
    const minute = firstAtLeast(s.minutes, mi);
    if (minute === undefined) {
      h += 1;
      mi = 0;
      if (h > 23) nextDay();
      continue;
    }
    return Date.UTC(y, mo - 1, d, h, minute);
  }
}

/** Years nextFireAt searches before giving up (covers the 28-year weekday/leap-year cycle). */
const SEARCH_YEARS = 30;

/**
 * The first instant strictly after `after` whose wall clock in `timeZone` matches the schedule,
 * with the DST rules of the header (gap: fire at the jump; fold: fire at the first occurrence).
 */
export function nextFireAt(schedule: CronSchedule, timeZone: string, after: Date): Date {
  if (!isValidTimeZone(timeZone)) throw new CronError(`"${timeZone}" is not a valid IANA time zone`);
  const afterMs = after.getTime();
  if (!Number.isFinite(afterMs)) throw new CronError('"after" is not a valid date');
  const wallAfter = wallMs(timeZone, afterMs);
  const maxYear = new Date(wallAfter).getUTCFullYear() + SEARCH_YEARS;
  // The next whole wall-clock minute after `after`.
  let cursor = Math.floor(wallAfter / MINUTE) * MINUTE + MINUTE;
  for (;;) {
    const civil = nextCivilMatch(schedule, cursor, maxYear);
    if (civil === null) throw new CronError(`cron expression "${schedule.expression}" never fires`);
    const t = instantOf(timeZone, civil);
    // t <= after only when `after` lies in the second pass of a repeated (fall-back) hour and
    // `civil` already fired at its first occurrence: skip it.
    if (t > afterMs) return new Date(t);
    cursor = civil + MINUTE;
  }
}

/** The next `count` fire times of `expression` after `after` (convenience for previews/tests). */
export function describeNext(expression: string, timeZone: string, after: Date, count: number): Date[] {
  const schedule = parseCron(expression);
  const out: Date[] = [];
  let from = after;
  for (let i = 0; i < count; i += 1) {
    from = nextFireAt(schedule, timeZone, from);
    out.push(from);
  }
  return out;
}
