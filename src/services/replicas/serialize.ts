/**
 * The public spellings of a replica's records: the list item, chats (the replica API's
 * snake_case summary, the workspace API's camelCase `WorkspaceChat`, and the engine's
 * `EngineChatSummary` carried by `chat.*` events, interop §4.9 and §4.13) and hook logs
 * (interop §4.12).
 */
import type { ChatRow } from '../../db/replicaChatsRepository';
import type { HookLogRow } from '../../db/replicaLogsRepository';
import type { ReplicaRow } from '../../db/replicasRepository';
import { chatSummary } from '../../domain/replicas';

const LAST_MESSAGE_PREVIEW_CHARS = 200;

export function serializeReplicaListItem(row: ReplicaRow) {
  return {
    id: row.id,
    name: row.name,
    status: row.status,
    source: row.source,
    created_at: row.created_at.toISOString(),
    last_activity_at: row.last_activity_at?.toISOString() ?? null,
    repositories: row.repositories.map(({ id, name, url }) => ({ id, name, url })),
    pull_requests: [] as Array<{ repository: string; number: number; url: string }>,
  };
}

export function serializeReplicaChat(row: ChatRow) {
  return {
    id: row.id,
    provider: row.provider,
    title: row.title,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    processing: row.processing,
    parent_chat_id: row.parent_chat_id,
  };
}

export function serializeWorkspaceChat(row: ChatRow) {
  return {
    ...chatSummary(row),
    ...(row.last_message_text ? { lastMessageText: row.last_message_text.slice(0, LAST_MESSAGE_PREVIEW_CHARS) } : {}),
  };
}

export const engineChatSummary = serializeWorkspaceChat;

/** Warm entries carry the script; start entries its commands (and the deprecated `repoName`). */
export function serializeHookLog(row: HookLogRow) {
  const head =
    row.kind === 'warm'
      ? { hookType: row.hook_type, hookName: row.hook_name, hookScript: row.script }
      : {
          hookType: row.hook_type,
          hookName: row.hook_name,
          // Deprecated in the original, and as it says: the repository's name, else `environment`.
          repoName: row.hook_type === 'repository' ? row.hook_name : 'environment',
          hookCommands: row.script.split('\n').filter((line) => line.trim() !== ''),
        };
  return {
    ...head,
    output: row.output,
    outputTruncated: row.output_total_chars > row.output.length,
    outputTotalChars: row.output_total_chars,
    exitCode: row.exit_code,
    timedOut: row.timed_out,
    executedAt: row.executed_at.toISOString(),
  };
}
