/**
 * The checks of what an automation refers to outside itself: its environment, the
 * repositories its code-hosting triggers name, and the model override. Each answers with the
 * domain error the client sees (not found for another organization's or user's, invalid for a
 * combination the rules refuse).
 */
import type { AgentId } from '../../agents/catalog';
import type { Actor } from '../../domain/actor';
import type { Trigger } from '../../domain/automations/rules';
import { invalid, notFound } from '../../domain/errors';
import type { Transaction } from '../../db';
import type { AutomationRow } from '../../db/automationsRepository';
import type { EnvironmentsRepository } from '../../db/environmentsRepository';
import type { RepositoriesRepository } from '../../db/repositoriesRepository';
import type { UpdateAutomationInput } from './types';

export function createAutomationReferenceChecks(deps: {
  environments: EnvironmentsRepository;
  repositories: RepositoriesRepository;
  isModelAllowed(organizationId: string, agent: AgentId, model: string): Promise<boolean>;
}) {
  return {
    /**
     * The environment must be the organization's. A personal environment serves only a
     * personal automation of its owner: someone else's is 404, one's own on an org automation 400.
     */
    async environment(actor: Actor, environmentId: string, ownerId: string | null, trx: Transaction): Promise<void> {
      const env = await deps.environments.find(actor.organizationId, environmentId, trx);
      if (!env) throw notFound('Environment', `body.environment_id: ${environmentId} is not an environment of this organization`);
      if (env.user_id === null) return;
      if (env.user_id !== actor.userId) throw notFound('Environment', `body.environment_id: ${environmentId} is not an environment of this organization`);
      if (ownerId === null) {
        throw invalid('Invalid body', 'body.environment_id: a personal environment can only be used by a personal automation (scope user) of its owner');
      }
    },

    /** Every repository a code-hosting trigger names must be the organization's. */
    async repositories(actor: Actor, triggers: Trigger[], trx: Transaction): Promise<void> {
      for (const [i, t] of triggers.entries()) {
        if (t.type !== 'github' && t.type !== 'gitlab') continue;
        if (t.config.repository_ids.length === 0) continue;
        const found = (await deps.repositories.findMany(actor.organizationId, t.config.repository_ids, trx)).map((r) => r.id);
        const missing = t.config.repository_ids.find((id) => !found.includes(id));
        if (missing) throw notFound('Repository', `body.triggers.${i}.config.repository_ids: ${missing} is not a repository of this organization`);
      }
    },

    /**
     * A model override must be enabled for its agent (agent_3's catalog). Checked only when the
     * request sends `model` or `agent_provider`, and outside the write transaction (the catalog
     * reads on its own connection).
     */
    async model(actor: Actor, input: UpdateAutomationInput, current: AutomationRow | null): Promise<void> {
      if (input.model === undefined && input.agent_provider === undefined) return;
      const model = input.model !== undefined ? input.model : current?.model ?? null;
      const agent = input.agent_provider !== undefined ? input.agent_provider : current?.agent_provider ?? null;
      if (!model || !agent) return;
      if (!(await deps.isModelAllowed(actor.organizationId, agent, model))) {
        throw invalid('Invalid body', `body.model: ${model} is not enabled for ${agent} in this organization`);
      }
    },
  };
}

export type AutomationReferenceChecks = ReturnType<typeof createAutomationReferenceChecks>;
