/** Media files' records (`media`); the bytes are in the blob store under `storage_key`. */
import type { Knex } from 'knex';

export interface MediaRow {
  id: string;
  organization_id: string;
  replica_id: string;
  filename: string;
  kind: string;
  mime_type: string;
  size_bytes: number;
  storage_key: string;
  uploaded_by: string;
  created_at: Date;
}

export type NewMedia = Omit<MediaRow, 'created_at'>;

// PostgreSQL answers bigint as a string.
const row = (r: Record<string, unknown> | undefined): MediaRow | null => (r ? ({ ...r, size_bytes: Number(r.size_bytes) } as MediaRow) : null);

export function createMediaRepository(db: Knex) {
  return {
    async insert(media: NewMedia, trx: Knex = db): Promise<MediaRow> {
      const [inserted] = await trx('media').insert(media).returning('*');
      return row(inserted as Record<string, unknown>)!;
    },

    /** The replica's file, if the replica is still live. */
    async find(replicaId: string, id: string, trx: Knex = db): Promise<MediaRow | null> {
      const found = await trx('media')
        .join('replicas', 'replicas.id', 'media.replica_id')
        .whereNull('replicas.deleted_at')
        .where({ 'media.id': id, 'media.replica_id': replicaId })
        .first('media.*');
      return row(found as Record<string, unknown> | undefined);
    },

    /** A file by id alone (a signed link), if its replica is still live. */
    async findLive(id: string, trx: Knex = db): Promise<MediaRow | null> {
      const found = await trx('media').join('replicas', 'replicas.id', 'media.replica_id').whereNull('replicas.deleted_at').where('media.id', id).first('media.*');
      return row(found as Record<string, unknown> | undefined);
    },

    async list(replicaId: string, page: { page: number; limit: number }, trx: Knex = db): Promise<{ rows: MediaRow[]; total: number }> {
      const [{ count }] = (await trx('media').where({ replica_id: replicaId }).count({ count: '*' })) as Array<{ count: string | number }>;
      const rows = await trx('media')
        .where({ replica_id: replicaId })
        .orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }])
        .limit(page.limit)
        .offset((page.page - 1) * page.limit);
      return { rows: rows.map((r: Record<string, unknown>) => row(r)!), total: Number(count) };
    },

    async delete(replicaId: string, id: string, trx: Knex = db): Promise<MediaRow | null> {
      const [deleted] = await trx('media').where({ id, replica_id: replicaId }).delete().returning('*');
      return row(deleted as Record<string, unknown> | undefined);
    },
  };
}

export type MediaRepository = ReturnType<typeof createMediaRepository>;
