/** `ai_gateway_usage`: one row per request the AI gateway forwarded, and the totals analytics reads. */
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';

export interface AiGatewayUsageRow {
  id: string;
  organization_id: string;
  replica_id: string;
  /** The replica's user (null for a workspace created with an organization key). */
  user_id: string | null;
  agent: string;
  model: string | null;
  /** What the client got: the provider's status, 502 when the provider failed, 499 when the client left first. */
  status: number;
  input_tokens: number | null;
  output_tokens: number | null;
  duration_ms: number;
  started_at: Date;
}

export type NewAiGatewayUsage = Omit<AiGatewayUsageRow, 'id'> & { id?: string };

export interface AiGatewayUsageQuery {
  organizationId: string;
  /** Requests started at or after this instant. */
  from: Date;
  /** Requests started before this instant. */
  to: Date;
  replicaId?: string;
  userId?: string;
}

/** Totals of one (agent, model) pair over a time range. */
export interface AiGatewayUsageTotals {
  agent: string;
  model: string | null;
  requests: number;
  /** Requests answered with a status of 400 or more (499 and 502 included). */
  failed_requests: number;
  input_tokens: number;
  output_tokens: number;
  duration_ms: number;
}

const toNumber = (value: unknown): number => (value === null || value === undefined ? 0 : Number(value));

export function createAiGatewayUsageRepository(db: Knex) {
  return {
    async record(row: NewAiGatewayUsage, trx: Knex = db): Promise<void> {
      await trx('ai_gateway_usage').insert({ ...row, id: row.id ?? randomUUID() });
    },

    async listForReplica(replicaId: string, trx: Knex = db): Promise<AiGatewayUsageRow[]> {
      const rows = (await trx('ai_gateway_usage').where({ replica_id: replicaId }).orderBy([{ column: 'started_at' }, { column: 'id' }])) as AiGatewayUsageRow[];
      return rows.map((r) => ({
        ...r,
        input_tokens: r.input_tokens === null ? null : Number(r.input_tokens),
        output_tokens: r.output_tokens === null ? null : Number(r.output_tokens),
      }));
    },

    /** An organization's totals per agent and model over `[from, to)`, optionally for one replica or user. */
    async summarize(q: AiGatewayUsageQuery, trx: Knex = db): Promise<AiGatewayUsageTotals[]> {
      const rows = await trx('ai_gateway_usage')
        .where({ organization_id: q.organizationId })
        .where('started_at', '>=', q.from)
        .where('started_at', '<', q.to)
        .modify((b) => {
          if (q.replicaId) b.where('replica_id', q.replicaId);
          if (q.userId) b.where('user_id', q.userId);
        })
        .groupBy('agent', 'model')
        .orderBy([{ column: 'agent' }, { column: 'model' }])
        .select('agent', 'model')
        .select(
          trx.raw('count(*) as requests'),
          trx.raw('count(*) filter (where status >= 400) as failed_requests'),
          trx.raw('coalesce(sum(input_tokens), 0) as input_tokens'),
          trx.raw('coalesce(sum(output_tokens), 0) as output_tokens'),
          trx.raw('coalesce(sum(duration_ms), 0) as duration_ms'),
        );
      return (rows as Array<Record<string, unknown>>).map((r) => ({
        agent: r.agent as string,
        model: (r.model as string | null) ?? null,
        requests: toNumber(r.requests),
        failed_requests: toNumber(r.failed_requests),
        input_tokens: toNumber(r.input_tokens),
        output_tokens: toNumber(r.output_tokens),
        duration_ms: toNumber(r.duration_ms),
      }));
    },
  };
}

export type AiGatewayUsageRepository = ReturnType<typeof createAiGatewayUsageRepository>;
