// Wall clocks of IANA time zones through Intl (formatters cached per zone), and the instant a
// wall time fires at across daylight-saving gaps and folds.

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

export const MINUTE = 60_000;
const DAY = 86_400_000;

/** The wall clock of instant `t` in the zone, as milliseconds of a UTC-based civil timeline. */
export function wallMs(timeZone: string, t: number): number {
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
export function instantOf(timeZone: string, civil: number): number {
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
