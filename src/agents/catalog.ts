/**
 * What each coding agent accepts (docs/decisions/agents.md, "Coding-agent credentials" and
 * "Model catalog"): modes, thinking levels, credential kinds and which model catalog lists its
 * models. The neutral identifiers are the API's; a
 * deployment that needs the real identifiers maps them at the edge.
 */
export const AGENT_IDS = ['agent_1', 'agent_2', 'agent_3', 'agent_4', 'agent_5'] as const;
export type AgentId = (typeof AGENT_IDS)[number];

export const THINKING_LEVELS = ['low', 'medium', 'high', 'xhigh', 'max', 'ultra', 'ultracode'] as const;
export type ThinkingLevel = (typeof THINKING_LEVELS)[number];

export type CredentialKind = 'api_key' | 'oauth_token';
export type ModelSource = 'source_a' | 'source_b';

export interface AgentSpec {
  id: AgentId;
  /** The CLI's executable in the sandbox image (scripts/sandbox-image/agents.json). */
  executable: string;
  planMode: boolean;
  goalMode: boolean;
  fastMode: boolean;
  thinkingLevels: readonly ThinkingLevel[];
  /** Null: the model decides (agent_5). */
  defaultThinking: ThinkingLevel | null;
  credentialKinds: readonly CredentialKind[];
  /** The model catalog whose ids this agent accepts, if it has one. */
  modelSource: ModelSource | null;
  /**
   * Its CLI saves a session as it goes and resumes one cut short (killed mid-turn): a turn cut
   * that way keeps its session on the chat, and the next message continues it.
   */
  resumesCutSessions: boolean;
}

const COMMON: readonly ThinkingLevel[] = ['low', 'medium', 'high', 'xhigh', 'max'];

export const AGENTS: Record<AgentId, AgentSpec> = {
  agent_1: {
    id: 'agent_1',
    executable: 'claude',
    planMode: true,
    goalMode: false,
    fastMode: true,
    thinkingLevels: [...COMMON, 'ultracode'],
    defaultThinking: 'high',
    credentialKinds: ['api_key', 'oauth_token'],
    modelSource: null,
    resumesCutSessions: true,
  },
  agent_2: {
    id: 'agent_2',
    executable: 'codex',
    planMode: true,
    goalMode: true,
    fastMode: true,
    thinkingLevels: [...COMMON, 'ultra'],
    defaultThinking: 'medium',
    credentialKinds: ['api_key', 'oauth_token'],
    modelSource: null,
    resumesCutSessions: true,
  },
  agent_3: {
    id: 'agent_3',
    executable: 'cursor-agent',
    planMode: true,
    goalMode: false,
    fastMode: false,
    thinkingLevels: COMMON,
    defaultThinking: 'medium',
    credentialKinds: ['api_key'],
    modelSource: 'source_a',
    resumesCutSessions: false,
  },
  agent_4: {
    id: 'agent_4',
    executable: 'opencode',
    planMode: true,
    goalMode: false,
    fastMode: false,
    thinkingLevels: COMMON,
    defaultThinking: 'medium',
    credentialKinds: ['api_key', 'oauth_token'],
    modelSource: 'source_b',
    resumesCutSessions: false,
  },
  agent_5: {
    id: 'agent_5',
    executable: 'pi',
    planMode: false,
    goalMode: false,
    fastMode: false,
    thinkingLevels: COMMON,
    defaultThinking: null,
    credentialKinds: ['api_key'],
    modelSource: 'source_b',
    resumesCutSessions: false,
  },
};

export const isAgentId = (value: unknown): value is AgentId => typeof value === 'string' && (AGENT_IDS as readonly string[]).includes(value);

/** The first rule a requested mode or thinking level breaks, or null. */
export function modeViolation(
  agent: AgentId,
  requested: { plan_mode?: boolean | null; goal_mode?: boolean | null; fast_mode?: boolean | null; thinking_level?: ThinkingLevel | null },
): string | null {
  const spec = AGENTS[agent];
  if (requested.plan_mode === true && !spec.planMode) return `${agent} does not support plan mode`;
  if (requested.goal_mode === true && !spec.goalMode) return `${agent} does not support goal mode`;
  if (requested.fast_mode === true && !spec.fastMode) return `${agent} does not support fast mode`;
  const level = requested.thinking_level;
  if (level === 'ultra' && agent !== 'agent_2') return 'thinking_level ultra is only available with agent_2';
  if (level === 'ultracode' && agent !== 'agent_1') return 'thinking_level ultracode is only available with agent_1';
  if (level && !spec.thinkingLevels.includes(level)) return `${agent} does not accept thinking_level ${level}`;
  return null;
}
