/**
 * A turn's end is one change: the message's status and its chat's `processing` flag are written
 * together, so no reader (the API, a client polling the queue, the next turn) sees a turn ended
 * while its chat is still busy. The test holds the chat row locked so the end stops half-way,
 * which is where a reader used to see a failed message in a busy chat.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { Knex } from 'knex';
import { agentTurnRecords, type AgentTurnRecordDeps } from '../../../activities/agentTurns/records';
import { createMemoryBus } from '../../../src/events/bus';
import { createReplicaEventEmitter } from '../../../src/events/replicaEvents';
import { harness } from '../../support/harness';
import { as, newOrg } from '../../support/http';
import { until } from '../../support/wait';
import { insertReplica } from './activitySupport';

const db = () => harness().database.db;

describe('replicas: the end of a turn', function () {
  this.timeout(60_000);

  it("frees the chat in the same change that ends its message: a reader never sees a turn ended in a busy chat", async () => {
    const org = await newOrg('turn-end');
    const api = as(org.org_api_key);
    const replicaId = await insertReplica(org.organization_id, { status: 'preparing' });
    const chatId = randomUUID();
    expect((await api.post(`/v1/workspaces/${replicaId}/chats`, { provider: 'agent_1', id: chatId, title: 'Turn end' })).status).to.equal(201);
    expect((await api.post(`/v1/workspaces/${replicaId}/chats/${chatId}/messages`, { message: 'Add a file.' })).status).to.equal(202);
    const repos = harness().database.repos;
    const claimed = await repos.replicaMessages.claimNext(replicaId, chatId);
    expect(claimed, 'the queued message').to.not.equal(null);

    // endTurn reads only the repositories and the events emitter.
    const records = agentTurnRecords({ repos, events: createReplicaEventEmitter(repos.replicaEvents, createMemoryBus()) } as unknown as AgentTurnRecordDeps);
    const seen = async () => {
      const message = await repos.replicaMessages.findById(replicaId, claimed!.id);
      const queue = await api.get(`/v1/workspaces/${replicaId}/chats/${chatId}/queue`);
      expect(queue.status).to.equal(200);
      return { status: message!.status, processing: queue.body.processing as boolean };
    };
    expect(await seen()).to.deep.equal({ status: 'running', processing: true });

    let releaseLock!: () => void;
    const held = new Promise<void>((resolve) => (releaseLock = resolve));
    let locked!: () => void;
    const lockTaken = new Promise<void>((resolve) => (locked = resolve));
    const holder = db().transaction(async (trx: Knex.Transaction) => {
      await trx('replica_chats').where({ replica_id: replicaId, id: chatId }).forUpdate().first();
      locked();
      await held;
    });
    await lockTaken;
    let ending: Promise<boolean> | null = null;
    try {
      ending = records.endTurn(replicaId, chatId, claimed!.id, { status: 'failed', error: 'upstream exploded' });
      // The end waits on the chat row: whatever it wrote before that is what a reader can see now.
      await until('the turn end to wait on the locked chat row', async () => {
        const waiting = await db().raw(`select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and query ilike '%replica_chats%' and datname = current_database()`);
        return waiting.rows[0].n > 0;
      }, 20_000, 20);
      expect(await seen(), 'while the chat row is held').to.deep.equal({ status: 'running', processing: true });
    } finally {
      releaseLock();
      await holder;
      await ending;
    }
    expect(await seen()).to.deep.equal({ status: 'failed', processing: false });
  });
});
