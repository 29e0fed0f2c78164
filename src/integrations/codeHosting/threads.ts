/**
 * Issues and pull/merge requests as threads routed to workspaces: what the GitHub and GitLab
 * mention parsers (`../github/mentions`, `../gitlab/mentions`) map a delivery to, the mention
 * test, thread keys, the text the workspace's agent gets, and the comment Hangar posts back.
 * Pure: no I/O.
 */
import { createHash } from 'node:crypto';
import type { ThreadBinding } from '../threads/types';
import type { CodeHostingProvider } from './events';

/** What every mapped delivery carries about its repository. */
export interface ThreadRepository {
  provider: CodeHostingProvider;
  /** Every URL form of the repository, for matching a connected repository. */
  repositoryUrls: string[];
  /** "owner/name" (GitLab: the path with namespace). */
  repositoryFullName: string;
  /** GitHub App installation id, null when absent (GitLab always null). */
  installationId: number | null;
}

/** An issue or pull/merge request: one thread. */
export interface ThreadItem {
  /** `owner/repo#12` (GitHub issues and pull requests share numbers); GitLab `group/proj#12` for an issue, `group/proj!12` for a merge request. */
  threadKey: string;
  number: number;
  isPullRequest: boolean;
  title: string | null;
  body: string | null;
  url: string | null;
}

/** A person on the provider's side. */
export interface ThreadPerson {
  /** The account's numeric id (GitHub and GitLab `user.id`): what identities are linked by, since a login can be renamed and re-registered. */
  id: string;
  login: string;
  name: string | null;
  /** GitHub's public email when the delivery carries one; always null for GitLab (never trusted to link anyone). */
  email: string | null;
}

/** Something was written in a thread: an issue or pull request opened, or a comment. */
export interface ThreadPost extends ThreadRepository {
  kind: 'post';
  trigger: 'opened' | 'comment';
  item: ThreadItem;
  /** The new text: the description when opened, the comment otherwise. */
  text: string;
  author: ThreadPerson;
  /**
   * Whether the provider says the author may act on the repository (GitHub's
   * author_association OWNER, MEMBER or COLLABORATOR); null when the delivery cannot say (GitLab).
   */
  trusted: boolean | null;
  /** Written by a bot, or by Hangar itself (its marker): never routed, so replies cannot loop. */
  fromBot: boolean;
  /** Where the text sits, for the acknowledging reaction: `issue:12`, `issue_comment:99`, `note:5`… */
  cursor: string;
  /** The comment's own URL when there is one. */
  commentUrl: string | null;
}

/** The issue or pull/merge request was closed (or merged). */
export interface ThreadEnd extends ThreadRepository {
  kind: 'close';
  threadKey: string;
}

/** A check or pipeline failed on one or more pull/merge requests. */
export interface CiFailure extends ThreadRepository {
  kind: 'ci_failed';
  /** The pull/merge requests it ran for: `owner/repo#7` and the number. */
  pullRequests: Array<{ threadKey: string; number: number }>;
  /** Check run or suite name (GitLab: the pipeline and its failed jobs). */
  name: string;
  /** `failure`, `timed_out`, `startup_failure` (GitLab: `failed`). */
  conclusion: string;
  summary: string | null;
  url: string | null;
  headSha: string | null;
  /** Stable id of the failure, for the message's cursor: `check_run:123`, `pipeline:9`. */
  cursor: string;
  /** Who caused it (the check's sender, the pipeline's user), when the delivery says. */
  sender: { id: string; login: string } | null;
}

export type CodeHostingThreadEvent = ThreadPost | ThreadEnd | CiFailure;

/**
 * Binds the pull/merge requests an agent's answer names to the answering workspace, so their
 * comments and CI failures reach it (worker side; the adapters call it after posting a reply).
 */
export interface PullRequestBinder {
  bindPullRequests(binding: ThreadBinding, urls: string[]): Promise<void>;
}

/** Hidden in every comment Hangar posts, so a delivery of Hangar's own comment is never routed back. */
export const HANGAR_MARKER = '<!-- hangar:reply -->';

export const hasMarker = (text: string | null | undefined): boolean => typeof text === 'string' && text.includes(HANGAR_MARKER);

export const githubThreadKey = (fullName: string, number: number): string => `${fullName}#${number}`;

export const gitlabThreadKey = (fullName: string, iid: number, mergeRequest: boolean): string => `${fullName}${mergeRequest ? '!' : '#'}${iid}`;

/** GitHub's author_association values of people with a say on the repository. */
const TRUSTED_ASSOCIATIONS = new Set(['OWNER', 'MEMBER', 'COLLABORATOR']);

export const isTrustedAssociation = (association: unknown): boolean => typeof association === 'string' && TRUSTED_ASSOCIATIONS.has(association.toUpperCase());

/** Case-insensitive login comparison, a leading "@" ignored on both sides. */
export const loginKey = (login: string): string => login.trim().replace(/^@/, '').toLowerCase();

/** A provider account's numeric id as text, or null when the value is not one. */
export const accountId = (value: unknown): string | null => (typeof value === 'number' && Number.isSafeInteger(value) && value > 0 ? String(value) : null);

/**
 * The same thread key for another spelling of its repository: keys are `{fullName}#N` or
 * `{fullName}!N`, and a GitLab thread is keyed by the connected repository's own path.
 */
export function rekeyThread(threadKey: string, fromFullName: string, toFullName: string): string {
  return threadKey.startsWith(fromFullName) ? `${toFullName}${threadKey.slice(fromFullName.length)}` : threadKey;
}

/**
 * Whether the text mentions `@{botName}` (also `@{botName}[bot]`), outside fenced code,
 * inline code and quoted lines, so quoting an earlier comment does not mention the bot again.
 */
export function mentionsBot(text: string | null, botName: string): boolean {
  if (!text) return false;
  const prose = text
    .replace(/```[\s\S]*?(```|$)/g, ' ')
    .replace(/`[^`\n]*`/g, ' ')
    .split('\n')
    .filter((line) => !/^\s*>/.test(line))
    .join('\n');
  const name = botName.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&');
  return new RegExp(`(^|[^A-Za-z0-9_.\`/-])@${name}(?![A-Za-z0-9_-])`, 'i').test(prose);
}

/** `[env:name]` in the text: the environment a new workspace uses. */
export function environmentTag(text: string | null): string | null {
  const match = /\[env:\s*([^\]\s]{1,200})\s*\]/i.exec(text ?? '');
  return match ? match[1]! : null;
}

/** Longest text forwarded from one delivery, in UTF-16 code units. */
const MAX_FORWARDED = 20_000;

const clip = (text: string, max: number): string => (text.length <= max ? text : `${text.slice(0, max)}\n… (truncated)`);

const providerName = (provider: CodeHostingProvider) => (provider === 'github' ? 'GitHub' : 'GitLab');

function itemLabel(post: Pick<ThreadPost, 'provider' | 'item'>): string {
  const kind = post.item.isPullRequest ? (post.provider === 'github' ? 'pull request' : 'merge request') : 'issue';
  return `${providerName(post.provider)} ${kind} ${post.item.threadKey}`;
}

/**
 * What the workspace's agent is told. A thread new to its workspace gets the whole context
 * (title, link, description, then the comment that started it); a follow-up only the new comment.
 */
export function postText(post: ThreadPost, followUp: boolean): string {
  const who = `@${post.author.login}`;
  if (followUp) {
    const what = post.trigger === 'opened' ? 'Description' : 'Comment';
    return clip(`${what} by ${who} on ${itemLabel(post)}:\n\n${post.text}`, MAX_FORWARDED);
  }
  const lines = [`${itemLabel(post)}: ${post.item.title ?? '(no title)'}`];
  if (post.item.url) lines.push(post.item.url);
  lines.push('(Your final answer of each turn is posted there as a comment.)');
  lines.push('', post.trigger === 'opened' ? `Opened by ${who}:` : 'Description:', '', post.item.body?.trim() || '(no description)');
  if (post.trigger === 'comment') lines.push('', `Comment by ${who}:`, '', post.text);
  return clip(lines.join('\n'), MAX_FORWARDED);
}

/** What the agent is told about a failed check on its pull/merge request. */
export function ciFailureText(failure: CiFailure, pullRequest: { threadKey: string }): string {
  const kind = failure.provider === 'github' ? 'pull request' : 'merge request';
  const lines = [
    `CI failed on your ${kind} ${pullRequest.threadKey}: ${failure.name} concluded ${failure.conclusion}.`,
  ];
  if (failure.headSha) lines.push(`Commit: ${failure.headSha}`);
  if (failure.url) lines.push(`Details: ${failure.url}`);
  if (failure.summary?.trim()) lines.push('', 'Summary:', '', failure.summary.trim());
  lines.push('', 'Please look into the failure and push a fix to the same branch.');
  return clip(lines.join('\n'), MAX_FORWARDED);
}

/** The longest comment GitHub accepts is 65536 characters; GitLab's is longer. */
const MAX_COMMENT = 60_000;

/** The comment Hangar posts after an agent turn: the answer, any PR links, or that the turn failed. */
export function replyComment(reply: { text: string; ok: boolean; error: string | null; pullRequestUrls: string[] }): string {
  const parts: string[] = [];
  if (!reply.ok) parts.push(`The agent's turn failed${reply.error ? `: ${reply.error.trim().slice(0, 2000)}` : '.'}`);
  if (reply.text.trim()) parts.push(reply.text.trim());
  else if (reply.ok) parts.push('The agent finished without saying anything.');
  if (reply.pullRequestUrls.length) parts.push(['Pull requests:', ...reply.pullRequestUrls.map((u) => `- ${u}`)].join('\n'));
  return `${clip(parts.join('\n\n'), MAX_COMMENT)}\n\n${HANGAR_MARKER}`;
}

/** The comment posted when a thread gets a new workspace. */
export function acknowledgeComment(replicaId: string, waking: boolean): string {
  return `Working on it in workspace \`${replicaId}\`${waking ? ' (waking it up)' : ''}.\n\n${HANGAR_MARKER}`;
}

/** A pull/merge request named by a URL: GitHub `…/owner/repo/pull/7`, GitLab `…/group/proj/-/merge_requests/7`. */
export function pullRequestOfUrl(provider: CodeHostingProvider, url: string): { host: string; fullName: string; number: number; threadKey: string } | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  const path = parsed.pathname.replace(/\/+$/, '');
  const match = provider === 'github' ? /^\/([^/]+\/[^/]+)\/pull\/(\d+)$/.exec(path) : /^\/(.+?)\/-\/merge_requests\/(\d+)$/.exec(path);
  if (!match) return null;
  const number = Number(match[2]);
  if (!Number.isSafeInteger(number) || number <= 0) return null;
  const fullName = decodeURIComponent(match[1]!);
  const threadKey = provider === 'github' ? githubThreadKey(fullName, number) : gitlabThreadKey(fullName, number, true);
  return { host: parsed.host.toLowerCase(), fullName, number, threadKey };
}

/**
 * The core's delivery id for a delivery (the core adds the organization: a repository several
 * organizations connected routes once per organization); `part` tells apart several messages of
 * one delivery (a check run failing on two pull requests). At most 200 of [A-Za-z0-9._:-].
 */
export function threadDeliveryId(provider: CodeHostingProvider, deliveryId: string, part?: string): string {
  const clean = (s: string) => s.replace(/[^A-Za-z0-9._-]/g, '-');
  const id = [provider, clean(deliveryId), ...(part ? [clean(part)] : [])].join(':');
  // Real delivery ids are UUIDs; anything longer is kept distinct by its digest.
  return id.length <= 150 ? id : `${provider}:${createHash('sha256').update(id).digest('hex')}`;
}
