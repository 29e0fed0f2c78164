/**
 * Every process migrates when it starts: several starting together on an empty database must
 * all succeed, and the schema must come out once.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { createPostgresKnex, migrateToLatest } from '../../../src/db/knex';
import { migrationSource } from '../../../src/db/migrations';
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

  it('031 drops GitHub and GitLab identities keyed by login, keeps the others, and admits GitLab connections', async () => {
    const db = createPostgresKnex(url.toString(), { schema: 'hangar_031' });
    try {
      await db.raw('CREATE SCHEMA IF NOT EXISTS hangar_031');
      const before = { ...migrationSource, getMigrations: async () => (await migrationSource.getMigrations([])).filter((name) => name < '031') };
      await db.migrate.latest({ migrationSource: before, schemaName: 'hangar_031' });
      const organizationId = randomUUID();
      const userId = randomUUID();
      await db('organizations').insert({ id: organizationId, name: 'before-031' });
      await db('users').insert({ id: userId, organization_id: organizationId, email: 'octo@example.com', display_name: 'Octo', role: 'member' });
      const identity = (provider: string, external: string) => ({ id: randomUUID(), organization_id: organizationId, user_id: userId, provider, external_user_id: external, linked_via: 'explicit' });
      // A login says nothing of which account held it when it was linked: it cannot become an id.
      await db('user_connections').insert([identity('github', 'octo'), identity('gitlab', '1234'), identity('slack', 'U123'), identity('linear', 'lin-user-1')]);

      await migrateToLatest(db, 'hangar_031');
      expect((await db('user_connections').orderBy('provider').select('provider', 'external_user_id')).map((r) => `${r.provider}:${r.external_user_id}`)).to.deep.equal([
        'linear:lin-user-1',
        'slack:U123',
      ]);
      await db('connections').insert({ id: randomUUID(), organization_id: organizationId, provider: 'gitlab', external_id: 'gitlab.com/acme', name: 'GitLab', secrets_sealed: 'x' });
      const refused = await db('connections')
        .insert({ id: randomUUID(), organization_id: organizationId, provider: 'bitbucket', external_id: 'acme', name: 'B', secrets_sealed: 'x' })
        .then(
          () => null,
          (err: Error) => err,
        );
      expect(String(refused)).to.match(/connections_provider_check/);
    } finally {
      await db.destroy();
    }
  });
});
