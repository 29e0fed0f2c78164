/** Enabled model ids and last-good catalog snapshots, per organization and catalog. */
import type { Knex } from 'knex';
import type { ModelSource } from '../agents/catalog';
import type { CatalogModel } from '../agents/builtinModels';

export function createModelCatalogRepository(db: Knex) {
  return {
    async enabledIds(organizationId: string, source?: ModelSource, trx: Knex = db): Promise<Array<{ source: ModelSource; model_id: string }>> {
      const query = trx('enabled_models').where({ organization_id: organizationId }).orderBy(['source', 'position']).select('source', 'model_id');
      if (source) query.andWhere({ source });
      return query;
    },

    async isEnabled(organizationId: string, source: ModelSource, modelId: string, trx: Knex = db) {
      const row = await trx('enabled_models')
        .where({ organization_id: organizationId, source })
        .select(trx.raw('count(*)::int as configured'), trx.raw('count(*) filter (where model_id = ?)::int as matched', [modelId]))
        .first();
      return { configured: row.configured > 0, enabled: row.matched > 0 };
    },

    async replaceEnabled(organizationId: string, source: ModelSource, modelIds: string[], trx: Knex = db): Promise<void> {
      await trx('enabled_models').where({ organization_id: organizationId, source }).delete();
      if (modelIds.length === 0) return;
      await trx('enabled_models').insert(
        modelIds.map((model_id, position) => ({ organization_id: organizationId, source, model_id, position })),
      );
    },

    async saveSnapshot(organizationId: string, source: ModelSource, fingerprint: string, models: readonly CatalogModel[], trx: Knex = db) {
      await trx('model_catalog_snapshots')
        .insert({ organization_id: organizationId, source, key_fingerprint: fingerprint, models: JSON.stringify(models), fetched_at: new Date() })
        .onConflict(['organization_id', 'source'])
        .merge();
    },

    async findSnapshot(organizationId: string, source: ModelSource, fingerprint: string, trx: Knex = db): Promise<CatalogModel[] | null> {
      const row = await trx('model_catalog_snapshots')
        .where({ organization_id: organizationId, source, key_fingerprint: fingerprint })
        .first('models');
      if (!row) return null;
      const models: unknown = typeof row.models === 'string' ? JSON.parse(row.models) : row.models;
      return Array.isArray(models) && models.length > 0 ? (models as CatalogModel[]) : null;
    },
  };
}

export type ModelCatalogRepository = ReturnType<typeof createModelCatalogRepository>;
