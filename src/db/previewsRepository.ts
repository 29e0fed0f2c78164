/** `previews` and `preview_links`: which workspace ports are shared, and the links that open them. */
import type { Knex } from 'knex';
import type { ReplicaStatus } from './replicasRepository';

export interface PreviewRow {
  id: string;
  organization_id: string;
  replica_id: string;
  port: number;
  authenticated: boolean;
  token: string;
  created_at: Date;
}

/** A preview with what the proxy needs of its workspace. */
export interface PreviewTarget extends PreviewRow {
  replica: {
    status: ReplicaStatus;
    deleted: boolean;
    user_id: string | null;
    container_address: string | null;
    /** The worker host holding its container; null for a workspace from before hosts. */
    host_id: string | null;
    /** That host's preview relay (`worker_hosts.relay_url`); null: none, the API dials the container. */
    relay_url: string | null;
  };
}

export interface PreviewLinkRow {
  id: string;
  preview_id: string;
  expires_at: Date;
  revoked_at: Date | null;
  created_at: Date;
}

export function createPreviewsRepository(db: Knex) {
  return {
    async list(replicaId: string, trx: Knex = db): Promise<PreviewRow[]> {
      return (await trx('previews').where({ replica_id: replicaId }).orderBy('port')) as PreviewRow[];
    },

    /**
     * The port's preview: a new row, or the existing one with `authenticated` updated (its
     * token, so its URL, stays). `created` says which.
     */
    async upsert(row: Omit<PreviewRow, 'created_at'>, trx: Knex = db): Promise<{ row: PreviewRow; created: boolean }> {
      const [saved] = (await trx('previews').insert(row).onConflict(['replica_id', 'port']).merge(['authenticated']).returning('*')) as PreviewRow[];
      return { row: saved!, created: saved!.id === row.id };
    },

    async delete(replicaId: string, port: number, trx: Knex = db): Promise<boolean> {
      return (await trx('previews').where({ replica_id: replicaId, port }).delete()) > 0;
    },

    async find(replicaId: string, port: number, trx: Knex = db): Promise<PreviewRow | null> {
      return ((await trx('previews').where({ replica_id: replicaId, port }).first()) as PreviewRow | undefined) ?? null;
    },

    async findTarget(token: string, trx: Knex = db): Promise<PreviewTarget | null> {
      const r = await trx('previews as p')
        .join('replicas as r', 'r.id', 'p.replica_id')
        .leftJoin('worker_hosts as h', 'h.id', 'r.host_id')
        .where('p.token', token)
        .first(
          'p.*',
          'r.status as r_status',
          'r.deleted_at as r_deleted_at',
          'r.user_id as r_user_id',
          'r.container_address as r_container_address',
          'r.host_id as r_host_id',
          'h.relay_url as h_relay_url',
        );
      if (!r) return null;
      const { r_status, r_deleted_at, r_user_id, r_container_address, r_host_id, h_relay_url, ...preview } = r;
      return {
        ...(preview as PreviewRow),
        replica: {
          status: r_status,
          deleted: r_deleted_at !== null,
          user_id: r_user_id ?? null,
          container_address: r_container_address ?? null,
          host_id: r_host_id ?? null,
          relay_url: h_relay_url ?? null,
        },
      };
    },

    async insertLink(link: Pick<PreviewLinkRow, 'id' | 'preview_id' | 'expires_at'>, trx: Knex = db): Promise<PreviewLinkRow> {
      const [row] = (await trx('preview_links').insert(link).returning('*')) as PreviewLinkRow[];
      return row!;
    },

    async findLink(id: string, trx: Knex = db): Promise<PreviewLinkRow | null> {
      return ((await trx('preview_links').where({ id }).first()) as PreviewLinkRow | undefined) ?? null;
    },

    /** False when the preview has no such link. */
    async revokeLink(previewId: string, linkId: string, trx: Knex = db): Promise<boolean> {
      const n = await trx('preview_links').where({ id: linkId, preview_id: previewId }).update({ revoked_at: trx.fn.now() });
      return n > 0;
    },

    /** Links past their expiry are useless; a sweep keeps the table small. */
    async deleteExpiredLinks(before: Date, trx: Knex = db): Promise<number> {
      return trx('preview_links').where('expires_at', '<', before).delete();
    },
  };
}

export type PreviewsRepository = ReturnType<typeof createPreviewsRepository>;
