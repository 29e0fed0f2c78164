/**
 * Which model ids each agent knows without asking a provider, and its default. Agents with a
 * model catalog (agent_3: source_a; agent_4, agent_5: source_b) take that catalog's built-in
 * list and default to its first entry; agent_1 and agent_2 have no public catalog, so they
 * get small neutral lists of their own (a deployment maps them to real ids at the edge).
 */
import { BUILTIN_MODELS } from './builtinModels';
import { AGENTS, type AgentId } from './catalog';

const OWN_MODELS: Record<'agent_1' | 'agent_2', readonly string[]> = {
  agent_1: ['agent_1-default', 'agent_1-large'],
  agent_2: ['agent_2-default', 'agent_2-large'],
};

/** The model ids an agent accepts without a live catalog; the first is its default. */
export function knownModels(agent: AgentId): readonly string[] {
  const source = AGENTS[agent].modelSource;
  if (source) return BUILTIN_MODELS[source].map((m) => m.id);
  return OWN_MODELS[agent as 'agent_1' | 'agent_2'];
}

export function agentDefaultModel(agent: AgentId): string {
  return knownModels(agent)[0]!;
}

export function isModelCompatible(agent: AgentId, model: string): boolean {
  return knownModels(agent).includes(model);
}
