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

export { CronError, parseCron, type CronSchedule } from './parse';
export { isValidTimeZone } from './zones';
export { describeNext, nextFireAt } from './next';
