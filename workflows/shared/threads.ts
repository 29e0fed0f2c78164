/**
 * Threads: Slack, Linear, GitHub/GitLab issues routed to workspaces (workflows/shared.ts).
 * The receivers' side of this contract is src/integrations/threads/types.ts.
 */

export type ThreadProvider = 'slack' | 'linear' | 'github' | 'gitlab';

/** A person on the provider's side, as the delivery names them. */
export interface ThreadAuthor {
  /** Slack user id, Linear user id, GitHub/GitLab numeric account id (never the login: it can be renamed and taken). */
  externalId: string;
  /** A readable name (GitHub/GitLab: the login). */
  name?: string | null;
  /** When a signed delivery carries it (Linear, GitHub); otherwise the adapter may look it up. Never GitLab's. */
  email?: string | null;
  /** The delivery says the person is of another organization than the connection's (Slack Connect): never linked by email. */
  external?: boolean;
}

/** One new message in a thread, for its workspace. */
export interface InboundThreadMessage {
  provider: ThreadProvider;
  organizationId: string;
  /** The organization's connection (Slack, Linear, GitLab); null for GitHub and the deployment's GitLab token. */
  connectionId: string | null;
  /** Stable per thread within the organization, e.g. `T1:C1:1700000000.000100`, a Linear issue id, `owner/repo#12`. */
  threadKey: string;
  /** Unique per delivery: deduplication and the workflow id. At most 200 characters of [A-Za-z0-9._:-]. */
  deliveryId: string;
  /** What the workspace's agent is told (already the new messages only, formatted). */
  text: string;
  author: ThreadAuthor;
  /** `[env:name]` found in the text: the environment a new workspace uses. */
  environmentName?: string | null;
  /** A new workspace's name. */
  title?: string | null;
  /** What the adapter needs to answer in the thread (channel and ts, issue id, repository and number…); stored on the thread. */
  reference: Record<string, unknown>;
  /** Provider position of this message (Slack ts, comment id): kept as the thread's cursor. */
  cursor?: string | null;
}

/** The thread ended (the issue or pull request was closed): the workspace's lifecycle policy applies. */
export interface ThreadClosed {
  provider: ThreadProvider;
  organizationId: string;
  threadKey: string;
  deliveryId: string;
}

/** One workflow per delivery: it routes the message (or the close) and acknowledges it in the thread. */
export const threadEventWorkflowId = (provider: string, deliveryId: string) => `thread-event/${provider}/${deliveryId}`;

export type ThreadEventInput =
  | { kind: 'message'; message: InboundThreadMessage }
  | { kind: 'close'; closed: ThreadClosed };
