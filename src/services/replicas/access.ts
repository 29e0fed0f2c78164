/**
 * Who may see a replica: it must belong to the caller's organization; a personal replica
 * (created with a personal key) is visible to its owner and to org keys. Anything else is
 * 404, never 403, so ids of other organizations' or members' workspaces leak nothing.
 */
import type { Knex } from 'knex';
import { notFound } from '../../domain/errors';
import type { Actor } from '../../domain/actor';
import type { ReplicaRow } from '../../db/replicasRepository';

export type { ReplicaRow };


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
