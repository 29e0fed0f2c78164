import { expect } from 'chai';
import { createEmbeddedKnex, migrateToLatest } from '../../../src/db/knex';

describe('embedded database (PGlite through knex)', () => {
  it('runs the migrations and answers writes the way the PostgreSQL dialect does', async function () {
    this.timeout(60_000);
    const db = createEmbeddedKnex();
    try {
      await migrateToLatest(db);
      await db('organizations').insert([
        { id: '00000000-0000-4000-8000-000000000001', name: 'a' },
        { id: '00000000-0000-4000-8000-000000000002', name: 'b' },
      ]);
      expect(await db('organizations').where({ name: 'a' }).update({ name: 'c' })).to.equal(1);
      expect(await db('organizations').where({ name: 'nothing' }).delete()).to.equal(0);
      expect(await db.transaction((trx) => trx('organizations').delete())).to.equal(2);
    } finally {
      await db.destroy();
    }
  });
});
