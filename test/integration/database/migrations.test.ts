/**
 * Every process migrates when it starts: several starting together on an empty database must
 * all succeed, and the schema must come out once.
 */
import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { createPostgresKnex, migrateToLatest } from '../../../src/db/knex';
import { SERVER_URL, withServer } from '../../support/harness';

describe('database migrations', function () {
  const name = `hangar_migrate_${randomBytes(4).toString('hex')}`;
  const url = new URL(SERVER_URL);
  url.pathname = `/${name}`;

  before(() => withServer((c) => c.query(`CREATE DATABASE ${name}`)));
  after(() => withServer((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)));

  it('lets processes starting together on an empty database all migrate, each migration applied once', async () => {
    const processes = Array.from({ length: 4 }, () => createPostgresKnex(url.toString(), { schema: 'hangar' }));
    try {
      const results = await Promise.allSettled(processes.map((db) => migrateToLatest(db, 'hangar')));
      expect(results.filter((r) => r.status === 'rejected').map((r) => String((r as PromiseRejectedResult).reason))).to.deep.equal([]);
      const applied: string[] = await processes[0]!('hangar.knex_migrations').pluck('name');
      expect(applied.length).to.be.greaterThan(20);
      expect(new Set(applied).size).to.equal(applied.length);
    } finally {
      await Promise.all(processes.map((db) => db.destroy()));
    }
  });
});
