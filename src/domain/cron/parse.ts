// Parsing five-field cron expressions (the syntax is described in ./index.ts).

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
