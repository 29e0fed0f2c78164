/**
 * Environment variables: values sealed at rest, plaintext on read. A personal environment
 * may define a key it inherits (from Global or its source environment) only when the
 * nearest inherited definition allows personal overrides — the same rule resolution applies
 * when a workspace starts, enforced here so the user hears about it when saving.
 */
import { randomUUID } from 'node:crypto';
import { sealedField } from '../../crypto/sealedFields';
import { reservedVariable } from '../../domain/workspaceSettings';
import type { Patch, VariableRow } from '../../db/environmentResourcesRepository';
import type { EnvironmentRow } from '../../db/environmentsRepository';
import type { Transaction } from '../../db/transaction';
import { invalid, conflict, forbidden } from '../../domain/errors';
import type { Actor } from '../../domain/actor';
import type { VariableInput, VariablePatch } from '../../schemas/environmentResources';
import { conflictOn, scopedResource, updatableView, type ResourceContext } from './context';

/** The bodies' own types, derived from their schemas (src/schemas/environmentResources.ts). */
export type { VariableInput, VariablePatch };

const duplicate = conflictOn({
  environment_variables_environment_id_key_unique: 'A variable with this key already exists in this environment',
});

function checkValue(value: string | undefined): void {
  if (value?.includes('\0')) throw invalid('Invalid body', 'body.value: must not contain NUL characters (a process environment cannot hold them)');
}

function checkKey(key: string | undefined): void {
  const reserved = key === undefined ? null : reservedVariable(key);
  if (reserved) throw invalid('Invalid body', `body.key: ${reserved}`);
}

const adminOnly = () =>
  forbidden('Only organization admins can set personal_override_allowed', 'leave personal_override_allowed out, or ask an admin');

export function createVariablesService(ctx: ResourceContext) {
  const { repo, secretBox } = ctx;
  const valueField = (id: string) => sealedField('environment_variables', 'value_sealed', id);

  const variables = scopedResource(ctx, repo.variables, {
    what: 'Variable',
    duplicate,
    serialize: (row: VariableRow) =>
      updatableView(row, { key: row.key, value: secretBox.open(row.value_sealed, valueField(row.id)), personal_override_allowed: row.personal_override_allowed }),
  });

  /** The layers a personal environment inherits from, nearest last (Global, then its source). */
  async function inheritedLayers(env: EnvironmentRow, trx: Transaction) {
    const global = await ctx.repos.environments.ensureGlobal(env.organization_id, trx);
    const layers: Array<{ label: string; id: string }> = [{ label: 'Global', id: global.id }];
    if (env.source_environment_id) layers.push({ label: 'source', id: env.source_environment_id });
    return layers;
  }

  async function assertOverridable(env: EnvironmentRow, key: string, trx: Transaction) {
    if (env.user_id === null) return;
    const layers = await inheritedLayers(env, trx);
    const rows = await repo.variables.findByKey(layers.map((l) => l.id), key, trx);
    const nearest = [...layers].reverse().find((l) => rows.some((r) => r.environment_id === l.id));
    if (!nearest) return;
    const row = rows.find((r) => r.environment_id === nearest.id)!;
    if (!row.personal_override_allowed) {
      throw conflict(
        `The variable ${key} is inherited from the ${nearest.label} environment and cannot be overridden`,
        `the ${nearest.label} environment's ${key} does not allow personal overrides (personal_override_allowed is false); an admin can allow them`,
      );
    }
  }

  return {
    list: variables.list,

    async create(actor: Actor, environmentId: string, input: VariableInput) {
      checkKey(input.key);
      checkValue(input.value);
      return ctx.write(actor, environmentId, async (env, trx) => {
        if (input.personal_override_allowed && !actor.isAdmin) throw adminOnly();
        await assertOverridable(env, input.key, trx);
        const id = randomUUID();
        const value_sealed = secretBox.seal(input.value, valueField(id));
        return variables.insert(env, { id, key: input.key, value_sealed, personal_override_allowed: input.personal_override_allowed ?? false }, trx);
      });
    },

    async update(actor: Actor, environmentId: string, id: string, input: VariablePatch) {
      checkKey(input.key);
      checkValue(input.value);
      return ctx.write(actor, environmentId, async (env, trx) => {
        const current = await variables.current(env, id, trx);
        const flag = input.personal_override_allowed;
        // Sending the flag back unchanged (a client echoing the record) is not "changing" it.
        if (flag !== undefined && flag !== current.personal_override_allowed && !actor.isAdmin) throw adminOnly();
        if (input.key !== undefined || input.value !== undefined) await assertOverridable(env, input.key ?? current.key, trx);
        const patch: Patch<VariableRow> = {};
        if (input.key !== undefined) patch.key = input.key;
        if (input.value !== undefined) patch.value_sealed = secretBox.seal(input.value, valueField(current.id));
        if (flag !== undefined) patch.personal_override_allowed = flag;
        return variables.update(env, id, patch, trx);
      });
    },

    remove: variables.remove,
  };
}
