/**
 * Skills enabled in an environment. A membership row names a skill by slug and source; the
 * same skill cannot be enabled twice under either. Deleting takes the membership row id.
 */
import type { SkillRow } from '../../db/environmentResourcesRepository';
import type { Actor } from '../../domain/actor';
import type { SkillsCatalog } from '../skillsCatalog';
import type { SkillInput } from '../../schemas/environmentResources';
import { conflictOn, scopedResource, updatableView, type ResourceContext } from './context';

/** The body's own type, derived from its schema (src/schemas/environmentResources.ts). */
export type { SkillInput };

const duplicate = conflictOn({
  environment_skills_environment_id_slug_unique: 'A skill with this slug is already enabled in this environment',
  environment_skills_environment_id_source_unique: 'A skill from this source is already enabled in this environment',
});

// A membership row never changes (a new source is a new row), so it was last updated when created.
const serialize = (row: SkillRow) => updatableView({ ...row, updated_at: row.created_at }, { name: row.name, slug: row.slug, source: row.source });

export function createSkillsService(ctx: ResourceContext, catalog: SkillsCatalog) {
  const skills = scopedResource(ctx, ctx.repo.skills, { what: 'Skill', duplicate, serialize });
  return {
    list: skills.list,

    create: (actor: Actor, environmentId: string, input: SkillInput) =>
      ctx.write(actor, environmentId, (env, trx) => skills.insert(env, { name: input.name, slug: input.slug, source: input.source }, trx)),

    remove: skills.remove,

    search: (query: string) => catalog.search(query),
  };
}
