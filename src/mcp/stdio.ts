/**
 * `hangar mcp`: the MCP server on stdin/stdout, for a client that starts it as a subprocess.
 * It calls the API at HANGAR_URL with HANGAR_API_KEY; on a machine running `npm start` both
 * default to that instance (its address and the personal key it saved), so a local client
 * needs no settings. stdout carries the protocol only: everything else goes to stderr.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { packageRoot } from '../packageRoot';
import { createMcpServer } from './server';

/** Where `npm start` listens when HANGAR_PORT is not set (src/config/http.ts). */
const DEFAULT_URL = 'http://localhost:8080';

export interface StdioSettings {
  baseUrl: string;
  apiKey: string;
}

/**
 * HANGAR_URL, else the address `npm start` recorded, else its default; HANGAR_API_KEY, else the
 * personal key `npm start` recorded (a personal key acts as its user, as a person's client should).
 */
export function stdioSettings(env: NodeJS.ProcessEnv): StdioSettings {
  // MCP clients start their servers from a directory of their own: without HANGAR_DATA_DIR,
  // the checkout's own .hangar is looked at after the current directory's.
  const dataDirs = env.HANGAR_DATA_DIR ? [resolve(env.HANGAR_DATA_DIR)] : [resolve('.hangar'), join(packageRoot(), '.hangar')];
  const path = dataDirs.map((dir) => join(dir, 'dev-credentials.json')).find((candidate) => existsSync(candidate)) ?? join(dataDirs[0]!, 'dev-credentials.json');
  const dev = existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as { base_url?: string; personal_api_key?: string }) : {};
  const baseUrl = env.HANGAR_URL || dev.base_url || DEFAULT_URL;
  const apiKey = env.HANGAR_API_KEY || dev.personal_api_key;
  if (!apiKey) throw new Error(`HANGAR_API_KEY is not set and there is no ${path} from npm start to take a key from`);
  if (!/^https?:\/\//.test(baseUrl)) throw new Error(`HANGAR_URL must be an http(s) URL, not ${JSON.stringify(baseUrl)}`);
  return { baseUrl, apiKey };
}

/** Serves until stdin ends (the client went away) or the process is told to stop. */
export async function serveStdio(settings: StdioSettings, version: string): Promise<void> {
  const server = createMcpServer({ ...settings, version });
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((done) => {
    transport.onclose = done;
  });
  await server.connect(transport);
  process.stderr.write(`hangar mcp: serving the replica tools over stdio for ${settings.baseUrl}\n`);
  const stop = () => void server.close();
  process.once('SIGINT', stop).once('SIGTERM', stop);
  process.stdin.once('end', stop);
  await closed;
}
