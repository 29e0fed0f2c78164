/**
 * A new workspace's record: the replica row, its first chat and its first queued message,
 * built the same way whether the API creates the workspace or an automation run does.
 */
import { createHash } from 'node:crypto';
import { AGENTS, modeViolation, type AgentId, type ThinkingLevel } from '../agents/catalog';
import type { Actor } from './actor';
import { invalid } from './errors';

export type ModeFlag = 'plan_mode' | 'goal_mode' | 'fast_mode';
export type ModeFlags = Record<ModeFlag, boolean>;

const MODE_PREFIXES: Array<[RegExp, ModeFlag]> = [
  [/^\/plan(\s+|$)/, 'plan_mode'],
  [/^\/goal(\s+|$)/, 'goal_mode'],
  [/^\/fast(\s+|$)/, 'fast_mode'],
];

/** A leading /plan, /goal or /fast sets the mode and is stripped (any order, each once). */
export function stripModePrefixes(message: string): { message: string; modes: Partial<Record<ModeFlag, true>> } {
  const modes: Partial<Record<ModeFlag, true>> = {};
  let rest = message.trimStart();
  for (let changed = true; changed; ) {
    changed = false;
    for (const [re, mode] of MODE_PREFIXES) {
      if (!modes[mode] && re.test(rest)) {
        rest = rest.replace(re, '');
        modes[mode] = true;
        changed = true;
      }
    }
  }
  return { message: rest, modes };
}

/**
 * The message without its mode prefixes and the modes it asks for (explicit flags win over
 * prefixes); an empty message is invalid.
 */
export function messageAndModes(input: { message: string } & Partial<ModeFlags>): { message: string; flags: ModeFlags } {
  const { message, modes } = stripModePrefixes(input.message);
  if (!message.trim()) throw invalid('Invalid body', 'body.message: must not be empty after its mode prefix');
  return {
    message,
    flags: { plan_mode: input.plan_mode ?? modes.plan_mode ?? false, goal_mode: input.goal_mode ?? modes.goal_mode ?? false, fast_mode: input.fast_mode ?? modes.fast_mode ?? false },
  };
}

/** Rejects a mode or thinking level the agent does not have. */
export function checkModes(agent: AgentId, modes: Partial<ModeFlags> & { thinking_level?: ThinkingLevel }): void {
  const violation = modeViolation(agent, modes);
  if (violation) throw invalid('Invalid body', violation);
}

export const hashEngineSecret = (secret: string) => createHash('sha256').update(secret).digest('hex');

/** The container (and volume) a replica uses: a claimed warm-pool entry's, or its own. */
export const workspaceKey = (row: { id: string; workspace_key?: string | null }) => row.workspace_key ?? row.id;

export interface RepositorySnapshot {
  id: string;
  name: string;
  url: string;
  default_branch: string;
}

/** The fields of a repository a workspace keeps, in a fixed order (a warm workspace is matched on them). */
export const snapshotRepositories = (repositories: readonly RepositorySnapshot[]): RepositorySnapshot[] =>
  repositories.map(({ id, name, url, default_branch }) => ({ id, name, url, default_branch }));

export interface NewReplica {
  ids: { replicaId: string; chatId: string; messageId: string };
  actor: Actor;
  source: string;
  environmentId: string;
  name: string;
  message: string;
  flags: ModeFlags;
  agent: AgentId;
  model: string | null;
  thinkingLevel?: ThinkingLevel;
  images?: unknown[];
  size?: 'small' | 'large';
  lifecyclePolicy?: string;
  config?: Record<string, unknown>;
  webhook?: { url: string; sealedSecret: string | null } | null;
  /** The engine secret, sealed for the container, and its hash for authenticating calls. */
  engineSecret: { sealed: string; hash: string };
  repositories: RepositorySnapshot[];
}

/** The rows of a new workspace; the repository inserts them in one transaction. */
export function newReplicaRecord(r: NewReplica) {
  const title = r.message.slice(0, 80);
  return {
    replica: {
      id: r.ids.replicaId,
      organization_id: r.actor.organizationId,
      user_id: r.actor.keyKind === 'personal' ? r.actor.userId : null,
      environment_id: r.environmentId,
      name: r.name,
      status: 'preparing',
      source: r.source,
      coding_agent: r.agent,
      agent_models: JSON.stringify(r.model ? { [r.agent]: r.model } : {}),
      thinking_level: r.thinkingLevel ?? AGENTS[r.agent].defaultThinking,
      ...r.flags,
      size: r.size ?? 'small',
      lifecycle_policy: r.lifecyclePolicy ?? 'default',
      config: JSON.stringify(r.config ?? {}),
      webhook_url: r.webhook?.url ?? null,
      webhook_secret_sealed: r.webhook?.sealedSecret ?? null,
      engine_secret_hash: r.engineSecret.hash,
      engine_secret_sealed: r.engineSecret.sealed,
      repositories: JSON.stringify(snapshotRepositories(r.repositories)),
    },
    chat: { id: r.ids.chatId, replica_id: r.ids.replicaId, provider: r.agent, title },
    message: {
      id: r.ids.messageId,
      replica_id: r.ids.replicaId,
      chat_id: r.ids.chatId,
      content: r.message,
      status: 'queued',
      queue_position: 1,
      coding_agent: r.agent,
      model: r.model,
      options: JSON.stringify({ ...r.flags, thinking_level: r.thinkingLevel ?? null, images: r.images ?? [] }),
      sender_user_id: r.actor.userId,
    },
  };
}

export type NewReplicaRecord = ReturnType<typeof newReplicaRecord>;

/** What a chat summary is made of: a chat's record. */
export interface ChatFacts {
  id: string;
  provider: string;
  title: string;
  processing: boolean;
  parent_chat_id: string | null;
  created_at: Date;
  updated_at: Date;
}

/** A chat as the events stream and the workspace chat API carry it (camelCase, as the original's `WorkspaceChat`). */
export function chatSummary(chat: ChatFacts) {
  return {
    id: chat.id,
    provider: chat.provider,
    title: chat.title,
    createdAt: chat.created_at.toISOString(),
    updatedAt: chat.updated_at.toISOString(),
    processing: chat.processing,
    parentChatId: chat.parent_chat_id,
  };
}

/** The events a new workspace's stream starts with. */
export function newReplicaEvents(r: Pick<NewReplica, 'ids' | 'agent' | 'message'>, at = new Date()): Array<[type: string, payload: unknown]> {
  const chat = { id: r.ids.chatId, provider: r.agent, title: r.message.slice(0, 80), processing: false, parent_chat_id: null, created_at: at, updated_at: at };
  return [
    ['replica.status.changed', { status: 'preparing', waking: false }],
    ['chat.created', { chat: chatSummary(chat) }],
    ['chat.turn.accepted', { chatId: r.ids.chatId, messageId: r.ids.messageId, queued: true, position: 0 }],
  ];
}
