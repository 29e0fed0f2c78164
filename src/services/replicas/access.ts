/**
 * Who may see a replica: it must belong to the caller's organization; a personal replica
 * (created with a personal key) is visible to its owner and to org keys. Anything else is
 * 404, never 403, so ids of other organizations' or members' workspaces leak nothing.
 */
import type { Knex } from 'knex';
import { notFound } from '../../errors';
import type { Actor } from '../identity';

export interface ReplicaRow {
  id: string;
  organization_id: string;
  user_id: string | null;
  environment_id: string | null;
  name: string;
  status: 'preparing' | 'active' | 'sleeping' | 'archived' | 'error';
  source: string;
  coding_agent: string;
  agent_models: Record<string, string>;
  thinking_level: string | null;
  plan_mode: boolean;
  goal_mode: boolean;
  fast_mode: boolean;
  size: 'small' | 'large';
  lifecycle_policy: string;
  auto_stop_minutes: number | null;
  config: Record<string, unknown>;
  webhook_url: string | null;
  webhook_secret_sealed: string | null;
  engine_secret_hash: string;
  engine_secret_sealed: string | null;
  /** The container (and volume) suffix: a claimed warm-pool entry's id, or null for the replica's own. */
  workspace_key?: string | null;
  repositories: Array<{ id: string; name: string; url: string; default_branch: string }>;
  last_activity_at: Date | null;
  created_at: Date;
  updated_at: Date;
  archived_at: Date | null;
  deleted_at: Date | null;
}

export function visibleReplicas(db: Knex, actor: Actor) {
  return db<ReplicaRow>('replicas')
    .where({ organization_id: actor.organizationId })
    .whereNull('deleted_at')
    .where((q) => {
      if (actor.keyKind !== 'org') q.whereNull('user_id').orWhere('user_id', actor.userId);
    });
}

export async function accessReplica(db: Knex, actor: Actor, id: string): Promise<ReplicaRow> {
  const row = await visibleReplicas(db, actor).where({ id }).first();
  if (!row) throw notFound('Replica');
  return row as ReplicaRow;
}

export function serializeReplicaListItem(row: ReplicaRow) {
  return {
    id: row.id,
    name: row.name,
    status: row.status,
    source: row.source,
    created_at: row.created_at.toISOString(),
    last_activity_at: row.last_activity_at?.toISOString() ?? null,
    repositories: row.repositories.map(({ id, name, url }) => ({ id, name, url })),
    pull_requests: [] as Array<{ repository: string; number: number; url: string }>,
  };
}
