/**
 * Workspace records written by the worker, for workspaces nobody created through the API: an
 * automation run's, and a thread's (Slack, Linear, GitHub/GitLab). The rules are the core's, as
 * for `POST /v1/replicas` and `POST /v1/replica/{id}/messages`; here a broken rule fails the
 * activity for good instead of answering 400. The caller starts or signals the workspace
 * workflow afterwards.
 */
import { ApplicationFailure } from '@temporalio/activity';
import type { AgentId, ThinkingLevel } from '../agents/catalog';
import { createReplicaRecord, workspaceInputOf, type ReplicaRecordDeps } from '../core/replicas/createRecord';
import { queueMessage, type QueueMessageDeps } from '../core/replicas/queueMessage';
import type { Transaction } from '../db';
import type { ReplicaRow } from '../db/replicasRepository';
import type { Actor } from '../domain/actor';
import { DomainError } from '../domain/errors';
import type { WorkspaceInput } from '../../workflows/shared';

export interface WorkspaceRecordDeps {
  repos: ReplicaRecordDeps['repos'] & QueueMessageDeps['repos'];
  secretBox: ReplicaRecordDeps['secretBox'];
  events: ReplicaRecordDeps['events'];
  timings: { idleMs: number; archiveAfterMs: number; historyLimit: number };
}

export interface NewWorkspaceRequest {
  replicaId: string;
  actor: Actor;
  source: string;
  environmentId: string;
  name: string;
  prompt: string;
  agent?: AgentId | null;
  model?: string | null;
  thinkingLevel?: ThinkingLevel | null;
  modes?: { plan_mode?: boolean; goal_mode?: boolean; fast_mode?: boolean };
  size?: 'small' | 'large';
  lifecyclePolicy?: string;
  config?: Record<string, unknown>;
}

/** A rule the request breaks will not heal on retry: the activity fails for good. */
function nonRetryable(err: unknown): never {
  if (err instanceof DomainError && err.kind !== 'unavailable' && err.kind !== 'internal') {
    throw ApplicationFailure.nonRetryable(err.details ? `${err.message}: ${err.details}` : err.message, 'InvalidInput');
  }
  throw err;
}

export function createWorkspaceRecords(deps: WorkspaceRecordDeps) {
  return {
    /** Writes a new workspace with its first chat and queued message, in `trx` when given. */
    async create(request: NewWorkspaceRequest, trx?: Transaction): Promise<ReplicaRow> {
      const { prompt, ...rest } = request;
      try {
        return (await createReplicaRecord(deps, { ...rest, message: prompt }, trx)).row;
      } catch (err) {
        return nonRetryable(err);
      }
    },

    /** What the workspace workflow of a record is started with. */
    workflowInput(row: ReplicaRow, idleMs?: number | null): WorkspaceInput {
      return workspaceInputOf(row, deps.timings, idleMs);
    },

    /**
     * Queues a follow-up in `chatId` (or, when that chat is gone or null, the workspace's newest
     * chat, or a new one), with the chat's agent and the workspace's model for it. Idempotent by
     * `messageId`: a retried activity finds the message it queued. In `outer` when given.
     */
    async followUp(
      row: ReplicaRow,
      input: { chatId: string | null; messageId: string; text: string; senderUserId: string | null },
      outer?: Transaction,
    ): Promise<{ chatId: string; messageId: string }> {
      const queued = await queueMessage(
        deps,
        row,
        { choice: { kind: 'follow_up', chatId: input.chatId }, message: input.text, messageId: input.messageId, senderUserId: input.senderUserId },
        outer,
      );
      return { chatId: queued.chatId, messageId: queued.messageId };
    },
  };
}

export type WorkspaceRecords = ReturnType<typeof createWorkspaceRecords>;
