/**
 * The typed client's types come from the OpenAPI document the API serves. `generate` writes
 * them (client/src/openapi.ts); `check` fails when the checked-in file differs from what the
 * current routes describe, so the client never drifts from the service.
 *
 * The document is built from the same route declarations the API mounts; the services behind
 * them are never called, so none are needed.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import { loadConfig } from '../src/config';
import { allRoutes } from '../src/http/routes';
import { createLogger } from '../src/logger';
import { version } from '../package.json';

export const CLIENT_TYPES = join(__dirname, '..', 'client', 'src', 'openapi.ts');

const HEADER = '/**\n * Generated from Hangar\'s OpenAPI document by `npm run client:generate`; do not edit.\n * CI fails when it differs from what the API serves (`npm run client:check`).\n */\n';

/** Services that only describe themselves: route declarations keep them for their handlers. */
function unused(path: string): any {
  return new Proxy(() => undefined, {
    get: (_target, key) => (key === 'then' ? undefined : unused(`${path}.${String(key)}`)),
    // Binding a handler to its service happens while declaring; calling one does not.
    apply: () => {
      if (path.endsWith('.bind')) return unused(path.slice(0, -'.bind'.length));
      throw new Error(`${path} was called while describing the API`);
    },
  });
}

export function servedDocument(): Record<string, unknown> {
  const config = loadConfig({});
  const routes = allRoutes({
    services: unused('services'),
    bus: unused('bus'),
    logger: createLogger({ level: 'error' }),
    probes: [],
    version,
    legacyCreateTimeoutMs: config.legacyCreateTimeoutMs,
    streams: config.streams,
  });
  const served = routes.find((r) => r.path === '/openapi.json');
  if (!served) throw new Error('no /openapi.json route');
  return served.handler({} as never) as Record<string, unknown>;
}

export async function clientTypes(document: Record<string, unknown>): Promise<string> {
  // The version changes with every release and says nothing about the shapes.
  const { info: _info, ...shapes } = document as { info?: unknown };
  const ast = await openapiTS(JSON.parse(JSON.stringify({ ...shapes, info: { title: 'Hangar', version: 'served' } })), { alphabetize: true });
  return HEADER + astToString(ast);
}

async function main(mode: string | undefined): Promise<void> {
  const expected = await clientTypes(servedDocument());
  if (mode === 'generate') {
    writeFileSync(CLIENT_TYPES, expected);
    console.log(`client: wrote ${CLIENT_TYPES}`);
    return;
  }
  if (mode === 'check') {
    const current = readFileSync(CLIENT_TYPES, 'utf8');
    if (current !== expected) {
      console.error('client: client/src/openapi.ts differs from the API the routes describe; run `npm run client:generate` and commit it');
      process.exit(1);
    }
    console.log('client: types match the served document');
    return;
  }
  console.error('usage: tsx scripts/client.ts generate|check');
  process.exit(2);
}

if (require.main === module) void main(process.argv[2]).catch((err) => {
  console.error(err);
  process.exit(1);
});
