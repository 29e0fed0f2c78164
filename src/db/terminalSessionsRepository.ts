/** `terminal_sessions` rows, and the little of `replicas` that terminals need. */
import type { Knex } from 'knex';

/** A row of `terminal_sessions`. */
export interface TerminalSessionRow {
  id: string;
  replicaId: string;
  owner: string;
  cols: number;
  rows: number;
  title: string;
  exited: boolean;
  exitCode: number | null;
  createdAt: Date;
}

export interface ReplicaAccess {
  id: string;
  organizationId: string;
  userId: string | null;
  status: string;
  /** The worker host holding its container; null for a workspace placed before hosts were recorded. */
  hostId: string | null;
}

export type ClaimOutcome =
  | { kind: 'claimed'; row: TerminalSessionRow }
  /** Another worker inserted the session first. */
  | { kind: 'lost' }
  | { kind: 'full'; live: number }
  /** The workspace is gone or no longer active. */
  | { kind: 'gone' };

function toRow(r: Record<string, any>): TerminalSessionRow {
  return {
    id: r.id,
    replicaId: r.replica_id,
    owner: r.owner,
    cols: r.cols,
    rows: r.rows,
    title: r.title,
    exited: r.exited,
    exitCode: r.exit_code ?? null,
    createdAt: r.created_at instanceof Date ? r.created_at : new Date(r.created_at),
  };
}

export function createTerminalSessionsRepository(db: Knex) {
  const sessions = (trx: Knex) => trx('terminal_sessions');
  const countLive = async (replicaId: string, trx: Knex = db): Promise<number> => {
    const r = await sessions(trx).where({ replica_id: replicaId, exited: false }).count<{ count: string | number }[]>({ count: '*' });
    return Number(r[0]?.count ?? 0);
  };

  return {
    async findReplica(replicaId: string, trx: Knex = db): Promise<ReplicaAccess | null> {
      const r = await trx('replicas').where({ id: replicaId }).first('id', 'organization_id', 'user_id', 'status', 'host_id');
      return r ? { id: r.id, organizationId: r.organization_id, userId: r.user_id ?? null, status: r.status, hostId: r.host_id ?? null } : null;
    },

    async list(replicaId: string, trx: Knex = db): Promise<TerminalSessionRow[]> {
      return (await sessions(trx).where({ replica_id: replicaId }).orderBy([{ column: 'created_at' }, { column: 'id' }])).map(toRow);
    },

    async find(replicaId: string, sessionId: string, trx: Knex = db): Promise<TerminalSessionRow | null> {
      const r = await sessions(trx).where({ replica_id: replicaId, id: sessionId }).first();
      return r ? toRow(r) : null;
    },

    countLive,

    /**
     * The claim that decides which worker holds a new session: the workspace row is locked,
     * so opens of one workspace are serialised and the session limit holds across workers;
     * the session id, chosen by the API, is the primary key, so the first insert wins.
     */
    async claim(input: { sessionId: string; replicaId: string; owner: string; cols: number; rows: number; maxLive: number }): Promise<ClaimOutcome> {
      return db.transaction(async (trx) => {
        const replica = await trx('replicas').where({ id: input.replicaId }).forUpdate().first('id', 'status');
        if (await sessions(trx).where({ id: input.sessionId }).first('id')) return { kind: 'lost' } as const;
        if (!replica || replica.status !== 'active') return { kind: 'gone' } as const;
        const live = await countLive(input.replicaId, trx);
        if (live >= input.maxLive) return { kind: 'full', live } as const;
        // Titles count up while older sessions exist: "Terminal 3" stays unique after "Terminal 1" goes.
        const titles: Array<{ title: string }> = await sessions(trx).where({ replica_id: input.replicaId }).select('title');
        const highest = Math.max(0, ...titles.map((t) => Number(/^Terminal (\d+)$/.exec(t.title)?.[1] ?? 0)));
        const [row] = await sessions(trx)
          .insert({
            id: input.sessionId,
            replica_id: input.replicaId,
            owner: input.owner,
            cols: input.cols,
            rows: input.rows,
            title: `Terminal ${highest + 1}`,
          })
          .returning('*');
        return { kind: 'claimed', row: toRow(row) } as const;
      });
    },

    async markExited(sessionId: string, exitCode: number | null, trx: Knex = db): Promise<void> {
      await sessions(trx).where({ id: sessionId, exited: false }).update({ exited: true, exit_code: exitCode });
    },

    async markManyExited(sessionIds: string[], trx: Knex = db): Promise<void> {
      if (sessionIds.length) await sessions(trx).whereIn('id', sessionIds).andWhere({ exited: false }).update({ exited: true });
    },

    /** A worker starting afresh holds none of the sessions an earlier run of it left behind. */
    async markOwnerExited(owner: string, trx: Knex = db): Promise<void> {
      await sessions(trx).where({ owner, exited: false }).update({ exited: true });
    },

    async updateSize(sessionId: string, cols: number, rows: number, trx: Knex = db): Promise<void> {
      await sessions(trx).where({ id: sessionId }).update({ cols, rows });
    },

    async remove(sessionId: string, trx: Knex = db): Promise<void> {
      await sessions(trx).where({ id: sessionId }).delete();
    },

    /** Of these ids, the ones whose row still exists and is not exited. */
    async stillLive(sessionIds: string[], trx: Knex = db): Promise<Set<string>> {
      if (sessionIds.length === 0) return new Set();
      const rows = await sessions(trx).whereIn('id', sessionIds).andWhere({ exited: false }).select('id');
      return new Set(rows.map((r: { id: string }) => r.id));
    },
  };
}

export type TerminalSessionsRepository = ReturnType<typeof createTerminalSessionsRepository>;
