import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { createPostgresKnex, pingDatabase } from '../../../src/db/knex';
import { createApp } from '../../../src/http/app';
import { metaRoutes } from '../../../src/http/routes/meta';
import { silentLogger } from '../../../src/logger';
import { harness } from '../../support/harness';

describe('readiness', () => {
  it('answers 503 with the Error body naming the dependency that is unreachable', async () => {
    // A real client against a port nothing listens on, next to the suite's real Temporal.
    const unreachable = createPostgresKnex('postgres://postgres@127.0.0.1:9/none', { poolMax: 1 });
    const app = createApp({
      logger: silentLogger,
      identity: harness().api.services.identity,
      bodyLimitBytes: 1024,
      routes: metaRoutes({
        openapi: () => ({}),
        probes: [
          { name: 'database', check: () => pingDatabase(unreachable) },
          { name: 'temporal', check: () => harness().api.temporal.ping() },
        ],
      }),
    });
    const server = app.listen(0, '127.0.0.1');
    try {
      await new Promise((r) => server.once('listening', r));
      const { port } = server.address() as AddressInfo;
      const res = await fetch(`http://127.0.0.1:${port}/readyz`);
      expect(res.status).to.equal(503);
      expect(await res.json()).to.deep.equal({ error: 'Not ready', details: 'unreachable: database' });
      expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).to.equal(200);
    } finally {
      server.close();
      await unreachable.destroy();
    }
  });
});
