/**
 * `POST /v1/slack/threads/attach` (interop §9): routes a Slack thread to a workspace by hand,
 * so its next messages go there (the first of them brings the thread so far). With an API key
 * the workspace is named and must be one the key may see; from inside a workspace (engine
 * secret and `X-Workspace-Id`) only that workspace, which is the default. The organization's
 * Slack connection gives the team; another organization's workspace is not found.
 *
 * A thread that has a row already belongs to someone: whoever a message of it reached, or
 * whoever attached it. Moving it hands its next messages (direct messages included) to
 * another workspace, so only an admin or an organization key may move any; a member only a
 * thread held by one of their own workspaces; a workspace's code only re-attaches a thread it
 * holds. A row without a workspace is a message being routed: only an admin moves that.
 */
import type { Repositories, Transaction } from '../../db';
import type { Actor } from '../../domain/actor';
import { conflict, forbidden, invalid, notFound } from '../../domain/errors';
import type { ThreadRecord } from '../../db/integrationThreadsRepository';
import { slackThreadKey } from '../../integrations/slack/events';
import type { AttachThreadInput } from '../../schemas/slack';

/** The body's own type, derived from its schema (src/schemas/slack.ts). */
export type { AttachThreadInput };

const ENGINE = 'engine:';

/** The original's `SlackThreadRecord`; the cursor is the last message forwarded. */
function threadRecord(thread: ThreadRecord, teamId: string, input: AttachThreadInput) {
  const messageTs = thread.reference.message_ts;
  return {
    id: thread.id,
    organization_id: thread.organizationId,
    slack_team_id: teamId,
    channel_id: input.channel_id,
    thread_ts: input.thread_ts,
    workspace_id: thread.replicaId,
    status: thread.closedAt ? 'closed' : 'open',
    metadata: {
      channel_id: input.channel_id,
      thread_ts: input.thread_ts,
      message_ts: typeof messageTs === 'string' ? messageTs : input.thread_ts,
      original_message: '',
      user_id: '',
    },
    last_processed_message_ts: thread.cursor,
    created_at: thread.createdAt,
    updated_at: thread.updatedAt,
  };
}

export function createSlackThreadsService(deps: { repos: Pick<Repositories, 'transact' | 'connections' | 'integrationThreads' | 'replicas' | 'replicaChats'> }) {
  const { repos } = deps;

  /** Refuses moving a thread that has a row to `target` unless the caller may (see above). */
  async function mayMove(actor: Actor, own: string | null, held: ThreadRecord, target: string, trx: Transaction): Promise<void> {
    if (actor.isAdmin || held.replicaId === target) return;
    if (own !== null) throw forbidden('The workspace agent cannot route this Slack thread', 'the thread is held by another workspace; only a member whose workspace holds it, or an admin, may move it');
    const holder = held.replicaId ? await repos.replicas.find(held.replicaId, trx) : null;
    if (holder?.user_id && holder.user_id === actor.userId) return;
    throw forbidden('The Slack thread belongs to another workspace', 'only the member whose workspace holds it, or an admin, may move it');
  }

  return {
    async attach(actor: Actor, input: AttachThreadInput) {
      const own = actor.keyId.startsWith(ENGINE) ? actor.keyId.slice(ENGINE.length) : null;
      const workspaceId = input.workspace_id ?? own;
      if (!workspaceId) throw invalid('Invalid body', 'body.workspace_id: is required with an API key');
      // From inside a workspace, another workspace does not exist.
      if (own !== null && workspaceId !== own) throw notFound('Replica');
      const replica = await repos.replicas.findVisible(actor, workspaceId);
      if (!replica) throw notFound('Replica');
      const connection = await repos.connections.findByProvider(actor.organizationId, 'slack');
      if (!connection) throw conflict('Slack is not connected', 'connect a Slack workspace to the organization first (POST /v1/connections)');

      const chat = await repos.replicaChats.latest(replica.id);
      const key = { organizationId: actor.organizationId, provider: 'slack' as const, threadKey: slackThreadKey(connection.external_id, input.channel_id, input.thread_ts) };
      const reference = { team_id: connection.external_id, channel_id: input.channel_id, thread_ts: input.thread_ts, message_ts: input.thread_ts };
      const thread = await repos.transact(async (trx) => {
        const fresh = await repos.integrationThreads.insertAttached({ ...key, connectionId: connection.id, replicaId: replica.id, chatId: chat?.id ?? null, reference }, trx);
        if (fresh) return fresh;
        // The row existed (or a message's routing made it meanwhile): decided under its lock.
        const held = (await repos.integrationThreads.lock(key, trx))!;
        await mayMove(actor, own, held, replica.id, trx);
        return repos.integrationThreads.bind(held.id, { replicaId: replica.id, chatId: chat?.id ?? null, reference }, trx);
      });
      return {
        thread: threadRecord(thread, connection.external_id, input),
        workspace: { id: replica.id, name: replica.name },
      };
    },
  };
}

export type SlackThreadsService = ReturnType<typeof createSlackThreadsService>;
