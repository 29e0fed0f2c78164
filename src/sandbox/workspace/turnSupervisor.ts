/**
 * The in-workspace turn supervisor, `hangar-turn` (scripts/sandbox-image/turn): an agent turn
 * runs detached inside its container, its output kept in files under `~/.hangar/turns/<turn>/`,
 * so the turn outlives the worker that started it. The worker starts it (once, however often it
 * asks), follows its output from any byte offset, and forgets it once the end is recorded. This
 * module says how to call it and how to read what it answers; the activity runs those commands.
 */
import { createHash } from 'node:crypto';
import { SANDBOX_HOME } from '../request';

export const TURN_SUPERVISOR = 'hangar-turn';
/** Where the image carries it: a container made from an older image gets it from there. */
export const TURN_SUPERVISOR_PATH = `/usr/local/bin/${TURN_SUPERVISOR}`;

/**
 * Where the supervisor's relay listens in every workspace (`defaultRelayAddress` in
 * scripts/sandbox-image/turn/relay.go): the agents reach the AI gateway through it, so that a
 * call made while Hangar cannot be reached waits for it instead of failing.
 */
export const TURN_RELAY_ADDRESS = '127.0.0.1:7431';

export const TURNS_DIR = `${SANDBOX_HOME}/.hangar/turns`;

/** A message id fit for a directory name as it is; any other is hashed. */
const PLAIN_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

/** The directory of a message's turn (message ids are unique within their workspace). */
export function turnDir(messageId: string): string {
  const name = PLAIN_ID.test(messageId) && !messageId.startsWith('h-') ? messageId : `h-${createHash('sha256').update(messageId).digest('hex').slice(0, 40)}`;
  return `${TURNS_DIR}/${name}`;
}

/** The gateway's root for `agent` as the workspace's agents reach it: through the relay. */
export const relayedGatewayUrl = (agent: string) => `http://${TURN_RELAY_ADDRESS}/v1/ai-gateway/${agent}`;

export interface SupervisedStart {
  dir: string;
  cwd: string;
  argv: string[];
  /** The agent's stdin is given to the start command, which keeps it for the agent. */
  withStdin: boolean;
  /** Hangar's API as the workspace reaches it: where the relay sends the agents' model calls. */
  relayUpstream: string;
}

export function startArgv(start: SupervisedStart): string[] {
  return [TURN_SUPERVISOR, 'start', start.dir, '--cwd', start.cwd, ...(start.withStdin ? ['--stdin'] : []), '--relay', start.relayUpstream, '--', ...start.argv];
}

export const followArgv = (dir: string, from: number) => [TURN_SUPERVISOR, 'follow', dir, '--from', String(from)];

export const forgetArgv = (dir: string) => [TURN_SUPERVISOR, 'forget', dir];

/** What `start` answers: the runner's session (to stop it by) and whether this call started it. */
export interface StartedTurn {
  sid: number;
  fresh: boolean;
}

export function parseStarted(line: string): StartedTurn | null {
  try {
    const value = JSON.parse(line) as Partial<StartedTurn>;
    return Number.isInteger(value.sid) && value.sid! > 0 && typeof value.fresh === 'boolean' ? { sid: value.sid!, fresh: value.fresh } : null;
  } catch {
    return null;
  }
}

/**
 * How a followed turn ended: the agent exited (with its code, 128 + n for a signal), its runner
 * is gone without an exit (the container restarted, or something in it killed the runner), or
 * the turn's directory is not there.
 */
export type FollowEnd = { state: 'exited'; code: number; signal?: string; error?: string } | { state: 'lost' } | { state: 'missing' };

/** The last line of `follow`'s stderr that says how the turn ended; null when none does. */
export function parseFollowEnd(stderr: string): FollowEnd | null {
  const lines = stderr.trim().split('\n');
  for (let i = lines.length - 1; i >= 0; i--) {
    try {
      const value = JSON.parse(lines[i]!) as { state?: unknown; code?: unknown; signal?: unknown; error?: unknown };
      if (value.state === 'lost' || value.state === 'missing') return { state: value.state };
      if (value.state === 'exited' && Number.isInteger(value.code)) {
        return { state: 'exited', code: value.code as number, ...(typeof value.signal === 'string' ? { signal: value.signal } : {}), ...(typeof value.error === 'string' ? { error: value.error } : {}) };
      }
    } catch {
      // Not the end's line: the supervisor's own complaints come before it.
    }
  }
  return null;
}
