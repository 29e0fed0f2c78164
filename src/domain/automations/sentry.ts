/**
 * The `sentry` automation trigger (interop §10.3): which Sentry deliveries it listens to, which
 * projects and how severe. Its config is validated here; the receiver applies the same filter.
 */

export const SENTRY_EVENTS = ['event_alert.triggered', 'issue.created', 'error.created'] as const;
export type SentryEventName = (typeof SENTRY_EVENTS)[number];

/** Sentry's event levels, least severe first. */
export const SENTRY_LEVELS = ['debug', 'info', 'warning', 'error', 'fatal'] as const;
export type SentryLevel = (typeof SENTRY_LEVELS)[number];

export interface SentryTriggerConfig {
  event: SentryEventName;
  /** Empty: every project of the connected Sentry organization. */
  project_slugs: string[];
  /** Null: every level. */
  min_level: SentryLevel | null;
}

/** A Sentry project slug: lower-case letters, digits, `-` and `_` (Sentry's own slug rule). */
const PROJECT_SLUG = /^[a-z0-9_-]{1,100}$/;

/**
 * Validates a sentry trigger's config; `fail(details)` builds the caller's error (details name
 * the field, e.g. `body.triggers.0.config.min_level: …`).
 */
export function normaliseSentryConfig(config: Record<string, unknown>, at: string, fail: (details: string) => Error): SentryTriggerConfig {
  for (const key of Object.keys(config)) {
    if (!['event', 'project_slugs', 'min_level'].includes(key)) throw fail(`${at}.${key}: unknown field`);
  }
  const { event, project_slugs: slugs, min_level: minLevel } = config;
  if (typeof event !== 'string' || !(SENTRY_EVENTS as readonly string[]).includes(event)) {
    throw fail(`${at}.event: a sentry trigger's event must be one of ${SENTRY_EVENTS.join(', ')}`);
  }
  let projectSlugs: string[] = [];
  if (slugs !== undefined && slugs !== null) {
    if (!Array.isArray(slugs)) throw fail(`${at}.project_slugs: must be an array`);
    if (slugs.length > 100) throw fail(`${at}.project_slugs: at most 100 entries`);
    const seen = new Set<string>();
    projectSlugs = slugs.map((s, i) => {
      if (typeof s !== 'string' || !PROJECT_SLUG.test(s.trim().toLowerCase())) {
        throw fail(`${at}.project_slugs.${i}: must be a Sentry project slug (letters, digits, - and _)`);
      }
      const slug = s.trim().toLowerCase();
      if (seen.has(slug)) throw fail(`${at}.project_slugs: duplicate entry "${s}"`);
      seen.add(slug);
      return slug;
    });
  }
  if (minLevel !== undefined && minLevel !== null && (typeof minLevel !== 'string' || !(SENTRY_LEVELS as readonly string[]).includes(minLevel))) {
    throw fail(`${at}.min_level: must be one of ${SENTRY_LEVELS.join(', ')}`);
  }
  return { event: event as SentryEventName, project_slugs: projectSlugs, min_level: (minLevel as SentryLevel | null | undefined) ?? null };
}

/**
 * Whether an event of `level` passes `minLevel`. A level Sentry did not name, or none, passes
 * only when no minimum is set.
 */
export function meetsMinLevel(level: string | null, minLevel: SentryLevel | null): boolean {
  if (minLevel === null) return true;
  const rank = level === null ? -1 : (SENTRY_LEVELS as readonly string[]).indexOf(level.toLowerCase());
  return rank >= 0 && rank >= SENTRY_LEVELS.indexOf(minLevel);
}

/** Whether a trigger's config selects an event of `projectSlug` at `level`. */
export function sentryTriggerMatches(config: SentryTriggerConfig, projectSlug: string, level: string | null): boolean {
  if (config.project_slugs.length > 0 && !config.project_slugs.includes(projectSlug.toLowerCase())) return false;
  return meetsMinLevel(level, config.min_level);
}
