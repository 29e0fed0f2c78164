/**
 * Where the user commands reach Hangar and with which key, and how they write: the API's JSON
 * with `--json`, short lines otherwise. The key is never printed.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createHangarClient, type HangarClient } from '../../client/src';
import { UsageError } from './format';

export const DEFAULT_URL = 'http://localhost:8080';
const USER_AGENT = 'hangar-cli';

export interface Connection {
  baseUrl: string;
  apiKey: string;
}

/** The part of `.hangar/dev-credentials.json` (written by `npm start`) the commands use. */
interface DevCredentials {
  personal_api_key?: string;
  base_url?: string;
}

function devCredentials(env: NodeJS.ProcessEnv): DevCredentials | null {
  const path = join(resolve(env.HANGAR_DATA_DIR || '.hangar'), 'dev-credentials.json');
  if (!existsSync(path)) return null;
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as DevCredentials;
  } catch {
    return null;
  }
}

/**
 * `--url`, then HANGAR_URL, then the address `npm start` recorded, then localhost:8080; `--key`,
 * then HANGAR_API_KEY, then the dev seed's personal key (a personal key, so `whoami` and
 * everything a member does work out of the box).
 */
export function resolveConnection(flags: { url?: string; key?: string }, env: NodeJS.ProcessEnv): Connection {
  const dev = devCredentials(env);
  const baseUrl = flags.url || env.HANGAR_URL || dev?.base_url || DEFAULT_URL;
  const apiKey = flags.key || env.HANGAR_API_KEY || dev?.personal_api_key;
  if (!apiKey) throw new UsageError('no API key: pass --key or set HANGAR_API_KEY (npm start writes one to .hangar/dev-credentials.json)');
  if (!/^https?:\/\/[^\s/]+/.test(baseUrl)) throw new UsageError(`--url must be an http(s) URL, not "${baseUrl}"`);
  return { baseUrl, apiKey };
}

export function clientFor(connection: Connection, fetch?: typeof globalThis.fetch): HangarClient {
  return createHangarClient({ ...connection, userAgent: USER_AGENT, ...(fetch ? { fetch } : {}) });
}

export interface Output {
  readonly json: boolean;
  /** Human text on stdout (ignored with --json, where `data` speaks). */
  text(text: string): void;
  /** The API's answer as JSON on stdout (only with --json). */
  data(value: unknown): void;
  /** Progress while waiting: stdout for people, stderr with --json so stdout stays one JSON document per answer. */
  progress(line: string): void;
}

export function createOutput(json: boolean, stdout: NodeJS.WritableStream = process.stdout, stderr: NodeJS.WritableStream = process.stderr): Output {
  return {
    json,
    text(text) {
      if (!json) stdout.write(text.endsWith('\n') ? text : `${text}\n`);
    },
    data(value) {
      if (json) stdout.write(JSON.stringify(value, null, 2) + '\n');
    },
    progress(line) {
      (json ? stderr : stdout).write(`${line}\n`);
    },
  };
}

/** What every command receives. */
export interface CommandContext {
  connection: Connection;
  client: HangarClient;
  out: Output;
}
