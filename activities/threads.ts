/**
 * The worker side of threads routed to workspaces (`thread-event/…` workflows and the replies
 * after each turn). A thread's row is locked while its workspace is decided, so two messages of
 * one thread arriving together make one workspace; the provider's `ThreadAdapter` collects the
 * new messages before and answers in the thread after.
 */
import { ApplicationFailure } from '@temporalio/activity';
import type { Repositories, Transaction } from '../src/db';
import type { ReplicaRow } from '../src/db/replicasRepository';
import type { Actor } from '../src/domain/actor';
import { nameBasedUuid } from '../src/domain/automations/run';
import type { IdentityProvider } from '../src/db/connectionsRepository';
import type { InboundThreadMessage, ThreadAdapter, ThreadBinding, ThreadClosed, ThreadProvider, ThreadRouting } from '../src/integrations/threads/types';
import type { Logger } from '../src/logger';
import type { LifecyclePolicy, LifecycleRequest, WorkspaceInput } from '../workflows/shared';
import type { WorkspaceRecords } from '../src/worker/workspaceRecords';

export interface ThreadActivityDeps {
  repos: Pick<Repositories, 'transact' | 'replicas' | 'replicaMessages' | 'integrationThreads' | 'connections' | 'identity' | 'environments' | 'organizationSettings'>;
  records: WorkspaceRecords;
  adapters: ThreadAdapter[];
  logger: Logger;
}

export interface RoutedThreadMessage {
  bindingId: string;
  /** Null when the message brought nothing new (an earlier delivery of the thread carried it). */
  routing: ThreadRouting | null;
  /** Set when the workflow must start the workspace (a new one); otherwise it is signalled. */
  start: WorkspaceInput | null;
}

/** What closing a thread does to its workspace, by the workspace's lifecycle policy. */
export const closeRequest = (policy: LifecyclePolicy): LifecycleRequest =>
  policy === 'archive_when_done' ? 'archive' : policy === 'delete_after_inactivity' ? 'delete' : 'sleep';

const PR_URL = /https?:\/\/[^\s<>()"'`]+?\/(?:pull\/\d+|-\/merge_requests\/\d+)/g;

/** Pull and merge request URLs in a text, each once, in order. */
export function pullRequestUrls(text: string): string[] {
  return [...new Set(text.match(PR_URL) ?? [])];
}

/** A thread's workspace and message ids derive from the thread and the delivery, so a retry makes the same ones. */
const workspaceIdFor = (bindingId: string, deliveryId: string): string => nameBasedUuid(`hangar:thread-workspace:${bindingId}:${deliveryId}`);
const messageIdFor = (deliveryId: string): string => nameBasedUuid(`hangar:thread-message:${deliveryId}`);

/** How often a message is collected again when its thread moved meanwhile, before it is forwarded as collected. */
const MAX_ROUTE_ATTEMPTS = 5;

export function createThreadActivities(deps: ThreadActivityDeps) {
  const { replicas, integrationThreads: threads, connections, identity, environments, organizationSettings } = deps.repos;
  const adapters = new Map<ThreadProvider, ThreadAdapter>(deps.adapters.map((a) => [a.provider, a]));
  const adapterFor = (provider: ThreadProvider): ThreadAdapter => {
    const adapter = adapters.get(provider);
    if (!adapter) throw ApplicationFailure.nonRetryable(`no thread adapter for ${provider}`, 'InvalidInput');
    return adapter;
  };

  /**
   * The Hangar member behind a provider identity: a linked identity (GitHub and GitLab: by
   * account id), else the same verified email. A GitLab payload's email is never one: whoever
   * holds a hook's token writes what they like there. And an email vouches for a person only
   * inside the connection's own organization: someone of another one (Slack Connect) may show
   * any address, so they are never linked by it.
   */
  async function memberOf(message: InboundThreadMessage, binding: ThreadBinding): Promise<string | null> {
    const provider = message.provider as IdentityProvider;
    const linked = await connections.identityOf(message.organizationId, provider, message.author.externalId);
    if (linked) return linked.user_id;
    if (provider === 'gitlab' || message.author.external) return null;
    const email = message.author.email ?? (await adapterFor(message.provider).authorEmail?.(binding, message.author).catch(() => null)) ?? null;
    if (!email) return null;
    const user = await identity.findUserByEmail(message.organizationId, email);
    if (!user) return null;
    const link = await connections.linkIfAbsent({
      organization_id: message.organizationId,
      user_id: user.id,
      provider,
      external_user_id: message.author.externalId,
      external_name: message.author.name ?? null,
      email,
      linked_via: 'email',
    });
    return link?.user_id ?? user.id;
  }

  /** `[env:name]`: a team environment of that name, or the member's personal one; else the organization default, else Global. */
  async function environmentFor(organizationId: string, userId: string | null, name: string | null | undefined, trx: Transaction): Promise<string> {
    if (name) {
      const found = await environments.findByName(organizationId, name, userId, trx);
      if (found) return found.id;
    }
    const settings = await organizationSettings.find(organizationId, trx);
    if (settings?.default_environment_id) return settings.default_environment_id;
    const global = await environments.findGlobal(organizationId, trx);
    if (!global) throw ApplicationFailure.nonRetryable('the organization has no Global environment', 'InvalidInput');
    return global.id;
  }

  const usable = (row: ReplicaRow | null): row is ReplicaRow => !!row && !row.deleted_at && row.status !== 'error';

  /**
   * Under the thread's row lock: forwards to the thread's workspace, or makes one. 'moved': the
   * cursor changed since `before` was read (collect again). A message with nothing new (an
   * earlier delivery already carried it) is not forwarded: `routing` is null.
   */
  async function route(
    message: InboundThreadMessage,
    before: ThreadBinding,
    expanded: { text: string; cursor: string | null },
    userId: string | null,
    attempt: number,
    trx: Transaction,
  ): Promise<RoutedThreadMessage | 'moved'> {
    const key = { organizationId: message.organizationId, provider: message.provider, threadKey: message.threadKey };
    const binding = await threads.lockOrCreate({ ...key, connectionId: message.connectionId, reference: message.reference }, trx);
    if (binding.cursor !== before.cursor && attempt < MAX_ROUTE_ATTEMPTS) return 'moved';
    const reference = { ...binding.reference, ...message.reference };
    const current = binding.replicaId ? await replicas.find(binding.replicaId, trx) : null;
    if (usable(current)) {
      if (expanded.text.trim() === '') return { bindingId: binding.id, routing: null, start: null };
      const queued = await deps.records.followUp(
        current,
        { chatId: binding.chatId, messageId: messageIdFor(message.deliveryId), text: expanded.text, senderUserId: userId ?? binding.userId },
        trx,
      );
      await threads.bind(binding.id, { replicaId: current.id, chatId: queued.chatId, reference, cursor: expanded.cursor ?? binding.cursor }, trx);
      const waking = current.status === 'sleeping' || current.status === 'archived';
      return { bindingId: binding.id, routing: { replicaId: current.id, chatId: queued.chatId, messageId: queued.messageId, created: false, waking }, start: null };
    }
    const replicaId = workspaceIdFor(binding.id, message.deliveryId);
    const actor: Actor = userId
      ? { organizationId: message.organizationId, userId, keyKind: 'personal', keyId: `thread:${binding.id}`, isAdmin: false }
      : { organizationId: message.organizationId, userId: null, keyKind: 'org', keyId: `thread:${binding.id}`, isAdmin: false };
    const text = expanded.text.trim() === '' ? message.text : expanded.text;
    const row =
      (await replicas.find(replicaId, trx)) ??
      (await deps.records.create(
        {
          replicaId,
          actor,
          source: message.provider,
          environmentId: await environmentFor(message.organizationId, userId, message.environmentName, trx),
          name: (message.title ?? text).split('\n')[0]!.slice(0, 80) || `${message.provider} thread`,
          prompt: text,
        },
        trx,
      ));
    const first = (await replicas.firstMessage(row.id, trx))!;
    await threads.bind(binding.id, { replicaId: row.id, chatId: first.chatId, userId, reference, cursor: expanded.cursor ?? binding.cursor }, trx);
    return {
      bindingId: binding.id,
      routing: { replicaId: row.id, chatId: first.chatId, messageId: first.messageId, created: true, waking: false },
      start: deps.records.workflowInput(row),
    };
  }

  return {
    /**
     * Finds or creates the thread's workspace and queues the message in the thread's chat. A
     * deleted (or failed) workspace is replaced by a new one. Idempotent per delivery: the
     * workspace and message ids derive from it.
     */
    async routeThreadMessage(message: InboundThreadMessage): Promise<RoutedThreadMessage> {
      const key = { organizationId: message.organizationId, provider: message.provider, threadKey: message.threadKey };
      const adapter = adapterFor(message.provider);
      const created = (await threads.find(key)) ?? (await deps.repos.transact((trx) => threads.lockOrCreate({ ...key, connectionId: message.connectionId, reference: message.reference }, trx)));
      const userId = await memberOf(message, created);
      // The thread's new messages are collected outside any lock (the provider may be slow);
      // if another delivery of the thread moved the cursor meanwhile, they are collected again.
      for (let attempt = 1; ; attempt++) {
        const before = attempt === 1 ? created : ((await threads.find(key)) ?? created);
        const expanded = adapter.expand ? await adapter.expand(before, message) : { text: message.text, cursor: message.cursor ?? null };
        const routed = await deps.repos.transact((trx) => route(message, before, expanded, userId, attempt, trx));
        if (routed !== 'moved') return routed;
      }
    },

    /** Tells the thread what happened (a reaction, "working on it in …"). Best effort. */
    async acknowledgeThread(input: { organizationId: string; bindingId: string; routing: ThreadRouting }): Promise<void> {
      const binding = await threads.findById(input.organizationId, input.bindingId);
      if (!binding) return;
      await adapterFor(binding.provider).acknowledge(binding, input.routing);
    },

    /** Closes the thread; the workspace's lifecycle policy says what happens to it. Null: nothing to do. */
    async closeThread(closed: ThreadClosed): Promise<{ replicaId: string; request: LifecycleRequest } | null> {
      const binding = await threads.find({ organizationId: closed.organizationId, provider: closed.provider, threadKey: closed.threadKey });
      if (!binding || binding.closedAt) return null;
      await threads.close(binding.id);
      const row = binding.replicaId ? await replicas.find(binding.replicaId) : null;
      if (!usable(row)) return null;
      return { replicaId: row.id, request: closeRequest(row.lifecycle_policy as LifecyclePolicy) };
    },

    /**
     * After a turn: the agent's answer goes to every open thread talking to that chat. A thread
     * whose provider cannot be reached fails the activity after the others were answered
     * (Temporal retries it, and the retry answers only the threads still waiting).
     */
    async relayTurn(input: { replicaId: string; chatId: string; messageId: string }): Promise<number> {
      const bound = (await threads.ofReplica(input.replicaId)).filter((t) => !t.chatId || t.chatId === input.chatId);
      if (bound.length === 0) return 0;
      const turn = await deps.repos.replicaMessages.reply(input.replicaId, input.messageId);
      if (!turn || turn.status === 'queued' || turn.status === 'running') return 0;
      const text = turn.reply_text ?? '';
      const reply = { replicaId: input.replicaId, text, ok: turn.status === 'completed', error: turn.error, pullRequestUrls: pullRequestUrls(text) };
      // Each thread is answered once per turn: a retry (after one provider failed) skips those done.
      let failure: unknown = null;
      let answered = 0;
      for (const binding of bound) {
        if (binding.lastReplyMessageId === input.messageId) continue;
        try {
          await adapterFor(binding.provider).reply(binding, reply);
          await threads.markReplied(binding.id, input.messageId);
          answered++;
        } catch (err) {
          failure ??= err;
        }
      }
      if (failure) throw failure;
      return answered;
    },
  };
}

export type ThreadActivities = ReturnType<typeof createThreadActivities>;
