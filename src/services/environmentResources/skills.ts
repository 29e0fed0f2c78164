/**
 * Skills enabled in an environment. A membership row names a skill by slug and source; the
 * same skill cannot be enabled twice under either. Deleting takes the membership row id.
 */
import type { SkillRow } from '../../db/environmentResourcesRepository';
import { notFound } from '../../domain/errors';
import type { Actor } from '../../domain/actor';
import type { SkillsCatalog } from '../skillsCatalog';
import { conflictOn, iso, type ResourceContext } from './context';

export interface SkillInput {
  name: string;
  slug: string;
  source: string;
}

const duplicate = conflictOn({
  environment_skills_environment_id_slug_unique: 'A skill with this slug is already enabled in this environment',
  environment_skills_environment_id_source_unique: 'A skill from this source is already enabled in this environment',
});

const serialize = (row: SkillRow) => ({
  id: row.id,
  organization_id: row.organization_id,
  environment_id: row.environment_id,
  name: row.name,
  slug: row.slug,
  source: row.source,
  created_at: iso(row.created_at),
});

export function createSkillsService(ctx: ResourceContext, catalog: SkillsCatalog) {
  const { repo } = ctx;
  return {
    list: (actor: Actor, environmentId: string) =>
      ctx.read(actor, environmentId, async (env, trx) => (await repo.skills.list(env.id, trx)).map(serialize)),

    create: (actor: Actor, environmentId: string, input: SkillInput) =>
      ctx.write(actor, environmentId, async (env, trx) => {
        const row = await repo.skills
          .insert({ organization_id: env.organization_id, environment_id: env.id, name: input.name, slug: input.slug, source: input.source }, trx)
          .catch(duplicate);
        return serialize(row);
      }),

    remove: (actor: Actor, environmentId: string, id: string) =>
      ctx.write(actor, environmentId, async (env, trx) => {
        if (!(await repo.skills.delete(env.organization_id, env.id, id, trx))) throw notFound('Skill');
      }),

    search: (query: string) => catalog.search(query),
  };
}
