/**
 * The cron loop's state, free of Temporal: whether the configuration changed while the loop
 * slept, what to do with the schedule as loaded, and when the loop has run long enough to
 * continue as new. The workflow (`automation.ts`) carries out its steps; unit tests drive it.
 */
import { CronError, nextFireAt, parseCron } from '../src/domain/cron';

/** The automation's schedule as an activity read it. */
export interface LoadedSchedule {
  exists: boolean;
  enabled: boolean;
  cron: { expression: string; timezone: string } | null;
}

export type ScheduleStep =
  /** The automation is gone: the loop ends. */
  | { kind: 'end' }
  /** Disabled, no cron trigger, or a cron that cannot be read: wait for the next change. */
  | { kind: 'wait' }
  /** Sleep until `at` (a change wakes the loop earlier), then fire. */
  | { kind: 'sleep'; at: Date };

/** Fires per workflow run before it continues as new, keeping its history small. */
export const FIRES_PER_RUN = 200;

export class AutomationSchedule {
  /** Set by the configChanged signal; cleared when the loop starts reading the schedule again. */
  changed = false;

  constructor(public fires = 0) {}

  configChanged(): void {
    this.changed = true;
  }

  /** The loop is about to read the schedule: a change from now on means it must read again. */
  reading(): void {
    this.changed = false;
  }

  /** The step for the schedule as just loaded, at `now`. */
  plan(loaded: LoadedSchedule, now: Date): ScheduleStep {
    if (!loaded.exists) return { kind: 'end' };
    if (!loaded.enabled || !loaded.cron) return { kind: 'wait' };
    try {
      return { kind: 'sleep', at: nextFireAt(parseCron(loaded.cron.expression), loaded.cron.timezone, now) };
    } catch (err) {
      // The API validates; an old row that no longer parses waits for a fix.
      if (err instanceof CronError) return { kind: 'wait' };
      throw err;
    }
  }

  fired(): void {
    this.fires++;
  }

  /** True after every FIRES_PER_RUN fires. */
  get full(): boolean {
    return this.fires > 0 && this.fires % FIRES_PER_RUN === 0;
  }
}
