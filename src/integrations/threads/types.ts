/**
 * The contract between the providers that route conversations to workspaces (Slack threads,
 * Linear issues, GitHub/GitLab issues and pull requests) and the core that does the routing.
 *
 * - A receiver (API side) verifies a delivery, maps it to an `InboundThreadMessage` (or a
 *   `ThreadClosed`) with no I/O beyond reading its connection, and hands it to the core
 *   (`ThreadDispatcher`), which records the delivery id and starts a Temporal workflow before the
 *   receiver answers.
 * - The workflow (worker side) finds or creates the thread's workspace, forwards the message to
 *   it, and asks the provider's `ThreadAdapter` to acknowledge in the thread. After every agent
 *   turn in the thread's chat the adapter posts the agent's answer back (`reply`).
 */

import type { InboundThreadMessage, ThreadAuthor, ThreadClosed, ThreadProvider } from '../../../workflows/shared';

// The messages a thread's workflow carries are part of the workflow contract (workflows/shared.ts).
export type { InboundThreadMessage, ThreadAuthor, ThreadClosed, ThreadProvider };

/** A thread as stored (`integration_threads`). */
export interface ThreadBinding {
  id: string;
  organizationId: string;
  provider: ThreadProvider;
  connectionId: string | null;
  threadKey: string;
  replicaId: string | null;
  chatId: string | null;
  userId: string | null;
  reference: Record<string, unknown>;
  cursor: string | null;
  closedAt: string | null;
}

/** What became of a message. */
export interface ThreadRouting {
  replicaId: string;
  chatId: string;
  messageId: string;
  /** A new workspace was created for the thread (first message, or its workspace was deleted). */
  created: boolean;
  /** The workspace was sleeping or archived and is being woken. */
  waking: boolean;
}

/** An agent turn's answer, for the thread. */
export interface ThreadReply {
  replicaId: string;
  /** The agent's final text of the turn ('' when it said nothing). */
  text: string;
  ok: boolean;
  error: string | null;
  /** Pull/merge request URLs the turn's text mentions. */
  pullRequestUrls: string[];
}

/**
 * Worker-side: how a provider answers in its threads. Secrets come from the connection (opened
 * by the core) or the deployment's app credentials; none of this runs in a container.
 */
export interface ThreadAdapter {
  provider: ThreadProvider;
  /** After routing: react and/or reply in the thread (e.g. "working on it in <workspace>"). Best effort. */
  acknowledge(binding: ThreadBinding, routing: ThreadRouting): Promise<void>;
  /** After each agent turn in the thread's chat: post the answer and any PR links. */
  reply(binding: ThreadBinding, reply: ThreadReply): Promise<void>;
  /**
   * Before forwarding: the text the workspace gets, given the thread as it is (null binding or
   * null cursor: the thread is new to Hangar). Slack collects the thread's messages after the
   * cursor (`conversations.replies`), so a follow-up forwards only what is new; the returned
   * cursor is stored (it should never move back). An empty text means nothing is new (a later
   * delivery of the thread already carried this message): nothing is forwarded. Without
   * `expand`, `message.text` and `message.cursor` are used as they are.
   */
  expand?(binding: ThreadBinding, message: InboundThreadMessage): Promise<{ text: string; cursor: string | null }>;
  /** The author's verified email when the delivery did not carry it (Slack users.info), or null. */
  authorEmail?(binding: Pick<ThreadBinding, 'connectionId' | 'organizationId'>, author: ThreadAuthor): Promise<string | null>;
}

/** API-side: hands a verified message to the core (durable before the receiver answers). */
export interface ThreadDispatcher {
  /** `duplicate` when the delivery id was seen before (nothing is done again). */
  message(message: InboundThreadMessage): Promise<{ duplicate: boolean }>;
  close(closed: ThreadClosed): Promise<{ duplicate: boolean }>;
}
