// Cron schedules for automation triggers: parsing, time-zone validation and "next fire time".
//
// Pure and dependency-free so Temporal workflow code can import it: no Node built-ins, no I/O,
// never reads the clock (`after` is always an argument). Only `Intl.DateTimeFormat` is used,
// to read the wall clock of an instant in an IANA time zone (formatters are cached per zone).
//
// Syntax: exactly five fields — minute (0-59), hour (0-23), day of month (1-31), month (1-12 or
// JAN-DEC), day of week (0-7 or SUN-SAT, 0 and 7 both Sunday). Each field is a comma list of
// `*`, `n`, `a-b`, `*/s` or `a-b/s` (names are case-insensitive and allowed in ranges; `a/s` on its
// own is rejected because crons disagree on its meaning). A step must lie between 1 and the
// field's largest value. The macros @yearly/@annually, @monthly, @weekly, @daily/@midnight and
// @hourly are accepted; @reboot is not.
//
// Day rule (Vixie cron): if the day-of-month field or the day-of-week field starts with `*`, a
// day matches when both fields match (so `0 0 * * MON` is "every Monday"); if both are
// restricted, a day matches when either does (`0 0 1,15 * MON` is "the 1st, the 15th and every
// Monday"). Like Vixie, `*/2` counts as starting with `*`.
//
// A schedule that can never fire (`0 0 30 2 *`, `0 0 31 4,6,9,11 *`) is rejected by parseCron
// with CronError("... never fires"); nextFireAt additionally gives up after a bounded search of
// 30 years (a full 28-year weekday/leap cycle) and throws the same error.
//
// Daylight-saving time — the wall clock of `timeZone` is what is matched:
//  - Spring forward (a wall time that does not exist, e.g. 02:30 on 2026-03-08 in
//    America/New_York): the fire is NOT skipped. Like Vixie cron, which runs the jobs of the
//    skipped hour right after the jump, it fires once at the first instant after the gap
//    (03:00 local, i.e. the transition instant). Several skipped times (e.g. `*/15 2 * * *`)
//    collapse into that single fire.
//  - Fall back (a wall time that occurs twice, e.g. 01:30 on 2026-11-01 in America/New_York):
//    it fires once, at the first occurrence (01:30 EDT); the second occurrence (01:30 EST) is
//    not a new fire. This holds for every schedule, including `* * * * *`, which therefore
//    pauses for the repeated hour (Vixie would repeat wildcard jobs there; a durable scheduler
//    that must never double a fire prefers "once per wall time").
//
// Algorithm: walk the wall clock field by field (month, then day, then hour, then minute,
// jumping to the next allowed value of each) to the next matching wall time, then convert that
// wall time to an instant in the zone (handling gaps and folds). Cost is proportional to the
// number of days/hours skipped, never a minute-by-minute scan.

export class CronError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CronError';
  }
}

/** A parsed cron expression. Plain data (JSON-serializable); every list is sorted and non-empty. */
export interface CronSchedule {
  readonly expression: string;
  readonly minutes: readonly number[];
  readonly hours: readonly number[];
  readonly daysOfMonth: readonly number[];
  readonly months: readonly number[];
  /** 0-6, Sunday = 0 (7 is folded into 0). */
  readonly daysOfWeek: readonly number[];
  /** The day-of-month field starts with `*` (Vixie's DOM_STAR). */
  readonly domStar: boolean;
  /** The day-of-week field starts with `*` (Vixie's DOW_STAR). */
  readonly dowStar: boolean;
}

interface FieldSpec {
  name: string;
  min: number;
  max: number;
  names?: readonly string[];
  /** Index offset of names[0]. */
  nameBase?: number;
}

const MONTH_NAMES = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];
const DAY_NAMES = ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'];

const FIELDS: readonly FieldSpec[] = [
  { name: 'minute', min: 0, max: 59 },
  { name: 'hour', min: 0, max: 23 },
  { name: 'day-of-month', min: 1, max: 31 },
  { name: 'month', min: 1, max: 12, names: MONTH_NAMES, nameBase: 1 },
  { name: 'day-of-week', min: 0, max: 7, names: DAY_NAMES, nameBase: 0 },
];

const MACROS: Readonly<Record<string, string>> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
};

/** Longest day of each month in any year (February 29 in leap years). */
const MAX_DAYS = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function parseValue(token: string, spec: FieldSpec, fieldText: string): number {
  let value: number;
  if (/^\d+$/.test(token)) {
    value = Number(token);
  } else if (spec.names && /^[a-z]{3}$/i.test(token) && spec.names.includes(token.toUpperCase())) {
    value = spec.names.indexOf(token.toUpperCase()) + (spec.nameBase ?? 0);
  } else {
    const expected = spec.names ? 'a number or a name' : 'a number';
    throw new CronError(`${spec.name} field "${fieldText}": "${token}" is not ${expected}`);
  }
  if (value < spec.min || value > spec.max) {
    throw new CronError(`${spec.name} field "${token}" is out of range ${spec.min}-${spec.max}`);
  }
  return value;
}

function parseField(text: string, spec: FieldSpec): number[] {
  const values = new Set<number>();
  for (const item of text.split(',')) {
    if (item === '') throw new CronError(`${spec.name} field "${text}" has an empty list item`);
    const slash = item.split('/');
    if (slash.length > 2) throw new CronError(`${spec.name} field "${item}" has more than one step`);
    const [rangePart, stepPart] = slash as [string, string | undefined];
    let step = 1;
    if (stepPart !== undefined) {
      if (!/^\d+$/.test(stepPart) || Number(stepPart) < 1 || Number(stepPart) > spec.max) {
        throw new CronError(`${spec.name} field "${item}" has a bad step "${stepPart}" (must be 1-${spec.max})`);
      }
      step = Number(stepPart);
    }
    let lo: number;
    let hi: number;
    if (rangePart === '*') {
      lo = spec.min;
      hi = spec.max;
    } else if (rangePart.includes('-')) {
      const ends = rangePart.split('-');
      if (ends.length !== 2) throw new CronError(`${spec.name} field "${item}" is not a valid range`);
      lo = parseValue(ends[0]!, spec, text);
      hi = parseValue(ends[1]!, spec, text);
      if (lo > hi) throw new CronError(`${spec.name} field "${item}" is a backwards range`);
    } else {
      if (stepPart !== undefined) {
        throw new CronError(`${spec.name} field "${item}": a step needs "*" or a range a-b before it`);
      }
      lo = hi = parseValue(rangePart, spec, text);
    }
    for (let v = lo; v <= hi; v += step) values.add(v);
  }
  return [...values].sort((a, b) => a - b);
}

/** Parses a five-field cron expression (or an @macro); throws CronError naming what is wrong. */
export function parseCron(expression: string): CronSchedule {
  if (typeof expression !== 'string') throw new CronError('cron expression must be a string');
  const trimmed = expression.trim();
  if (trimmed === '') throw new CronError('cron expression is empty');
  let source = trimmed;
  if (trimmed.startsWith('@')) {
    const macro = MACROS[trimmed.toLowerCase()];
    if (macro === undefined) throw new CronError(`unknown cron macro "${trimmed}"`);
    source = macro;
  }
  const parts = source.split(/\s+/);
  if (parts.length !== 5) {
    throw new CronError(`cron expression must have exactly 5 fields (minute hour day-of-month month day-of-week), got ${parts.length}`);
  }
  const [minutes, hours, daysOfMonth, months, rawDow] = parts.map((p, i) => parseField(p, FIELDS[i]!)) as [
    number[],
    number[],
    number[],
    number[],
    number[],
  ];
  const daysOfWeek = [...new Set(rawDow.map((d) => d % 7))].sort((a, b) => a - b);
  const domStar = parts[2]!.startsWith('*');
  const dowStar = parts[4]!.startsWith('*');
  // Under the AND rule the day-of-month set alone decides whether a day can ever exist (every
  // date falls on every weekday within a 28-year cycle). Under the OR rule any weekday will do.
  if (domStar || dowStar) {
    const possible = months.some((m) => daysOfMonth.some((d) => d <= MAX_DAYS[m - 1]!));
    if (!possible) throw new CronError(`cron expression "${trimmed}" never fires (no such day in the given months)`);
  }
  return { expression: trimmed, minutes, hours, daysOfMonth, months, daysOfWeek, domStar, dowStar };
}

// ---------------------------------------------------------------------------------------------
// Time zones

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** True for a time zone name Intl knows (IANA names such as `Europe/Berlin`, `UTC`). */
export function isValidTimeZone(tz: string): boolean {
  // Must start with a letter: rejects empty strings and raw offsets such as "+01:00".
  if (typeof tz !== 'string' || !/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(tz)) return false;
  try {
    formatter(tz);
    return true;
  } catch {
    return false;
  }
}

const MINUTE = 60_000;
const DAY = 86_400_000;

/** The wall clock of instant `t` in the zone, as milliseconds of a UTC-based civil timeline. */
function wallMs(timeZone: string, t: number): number {
  const parts = formatter(timeZone).formatToParts(new Date(t));
  const get = (type: string): number => Number(parts.find((p) => p.type === type)?.value);
  const hour = get('hour') % 24;
  const civil = Date.UTC(get('year'), get('month') - 1, get('day'), hour, get('minute'), get('second'));
  return civil + (((t % 1000) + 1000) % 1000);
}

/** UTC offset (ms) of the zone at instant `t`. */
function offsetAt(timeZone: string, t: number): number {
  return wallMs(timeZone, t) - t;
}

/**
 * The instant at which wall time `civil` (a minute on the civil timeline) fires: its first
 * occurrence, or — for a wall time skipped by a forward jump — the first instant after the gap.
 */
function instantOf(timeZone: string, civil: number): number {
  const before = offsetAt(timeZone, civil - DAY);
  const after = offsetAt(timeZone, civil + DAY);
  const occurrences = [...new Set([before, offsetAt(timeZone, civil), after])]
    .map((o) => civil - o)
    .filter((t) => wallMs(timeZone, t) === civil)
    .sort((a, b) => a - b);
  if (occurrences.length > 0) return occurrences[0]!;
  // A gap: with the later offset the instant lies before the jump, with the earlier one after.
  // Binary-search (to the second) the first instant whose wall clock is past `civil`.
  let lo = Math.floor((civil - after) / 1000); // wall clock before civil
  let hi = Math.ceil((civil - before) / 1000); // wall clock after civil
  if (lo >= hi) return civil - before;
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (wallMs(timeZone, mid * 1000) > civil) hi = mid;
    else lo = mid;
  }
  return hi * 1000;
}

// ---------------------------------------------------------------------------------------------
// Matching on the civil (wall-clock) timeline

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
