/**
 * `POST /v1/slack/threads/attach` (interop §9): routes a Slack thread to a workspace by hand,
 * so its next messages go there (the first of them brings the thread so far). With an API key
 * the workspace is named and must be one the key may see; from inside a workspace (engine
 * secret and `X-Workspace-Id`) only that workspace, which is the default. The organization's
 * Slack connection gives the team; another organization's workspace is not found.
 */
import type { Repositories } from '../../db';
import type { Actor } from '../../domain/actor';
import { conflict, invalid, notFound } from '../../domain/errors';
import { slackThreadKey } from '../../integrations/slack/events';

export interface AttachThreadInput {
  channel_id: string;
  thread_ts: string;
  workspace_id?: string;
}

const ENGINE = 'engine:';

export function createSlackThreadsService(deps: { repos: Pick<Repositories, 'connections' | 'integrationThreads' | 'replicas' | 'replicaChats'> }) {
  const { repos } = deps;

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
      const thread = await repos.integrationThreads.attach({
        organizationId: actor.organizationId,
        provider: 'slack',
        threadKey: slackThreadKey(connection.external_id, input.channel_id, input.thread_ts),
        connectionId: connection.id,
        replicaId: replica.id,
        chatId: chat?.id ?? null,
        reference: { team_id: connection.external_id, channel_id: input.channel_id, thread_ts: input.thread_ts, message_ts: input.thread_ts },
      });
      return {
        thread: {
          id: thread.id,
          team_id: connection.external_id,
          channel_id: input.channel_id,
          thread_ts: input.thread_ts,
          workspace_id: replica.id,
          created_at: thread.createdAt,
          updated_at: thread.updatedAt,
        },
        workspace: { id: replica.id, name: replica.name },
      };
    },
  };
}

export type SlackThreadsService = ReturnType<typeof createSlackThreadsService>;
