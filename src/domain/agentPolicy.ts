/**
 * Which agent and model a workspace gets, and whether an organization allows a model: the
 * rules the API applies when a workspace is created and an automation run applies again when
 * it fires (settings may have changed since the automation was saved).
 */
import { AGENTS, type AgentId } from '../agents/catalog';
import { BUILTIN_MODELS } from '../agents/builtinModels';
import { agentDefaultModel, isModelCompatible } from '../agents/defaults';

export const DEFAULT_CODING_AGENT: AgentId = 'agent_1';

export type ModelCompatibility = (agent: AgentId, model: string) => boolean;

/** An organization's defaults as stored; null fields (or no row) fall back to the built-in ones. */
export interface AgentDefaults {
  default_coding_agent?: AgentId | null;
  default_models?: Partial<Record<AgentId, string | null>> | null;
}

/**
 * The model a run gets: the requested one if the agent accepts it, else the organization's
 * default for that agent if the agent accepts that, else the agent's own default.
 */
export function pickModel(agent: AgentId, requested: string | null | undefined, orgDefault: string | null, compatible: ModelCompatibility): string {
  if (requested && compatible(agent, requested)) return requested;
  if (orgDefault && compatible(agent, orgDefault)) return orgDefault;
  return agentDefaultModel(agent);
}

/**
 * Fills what a replica or automation left null: agent → the organization's default agent;
 * model → the organization's default for that agent → the agent's default. A model the agent
 * does not accept falls back the same way.
 */
export function resolveAgentAndModel(
  defaults: AgentDefaults | null,
  requested: { agent?: AgentId | null; model?: string | null },
  compatible: ModelCompatibility = isModelCompatible,
): { agent: AgentId; model: string } {
  const agent = requested.agent ?? defaults?.default_coding_agent ?? DEFAULT_CODING_AGENT;
  return { agent, model: pickModel(agent, requested.model, defaults?.default_models?.[agent] ?? null, compatible) };
}

const BUILTIN_SOURCE_A = new Set(BUILTIN_MODELS.source_a.map((m) => m.id));

/**
 * Whether an organization allows `modelId` for `agent`, given what it enabled for the agent's
 * catalog (`lookup`): an organization that chose models allows only those; otherwise source_a
 * allows its built-in list and source_b anything (its router accepts ids we do not list).
 */
export function isModelAllowed(agent: AgentId, modelId: string, lookup: { configured: boolean; enabled: boolean } | null): boolean {
  const source = AGENTS[agent].modelSource;
  if (!source) return true;
  if (lookup?.configured) return lookup.enabled;
  return source === 'source_a' ? BUILTIN_SOURCE_A.has(modelId) : true;
}

/**
 * The same rule as a list, for checking many requests against one lookup (the AI gateway):
 * the ids an organization allows for `agent` given the ids it enabled in the agent's catalog,
 * or null when it allows any.
 */
export function allowedModelIds(agent: AgentId, enabled: readonly string[]): ReadonlySet<string> | null {
  const source = AGENTS[agent].modelSource;
  if (!source) return null;
  if (enabled.length > 0) return new Set(enabled);
  return source === 'source_a' ? BUILTIN_SOURCE_A : null;
}
