/**
 * GitHub webhook deliveries: the `X-Hub-Signature-256` check and the mapping of pull_request
 * events, and of `/{botName}` comments on pull requests, to trigger events. Pure: the HTTP layer hands in headers and bodies.
 */
import { matchesHmacSha256 } from '../../crypto/hmac';
import { asRecord, bool, botCommand, int, isBotAuthor, presentStrings, str, truncate, type CodeHostingEvent, type TriggerEventName } from '../codeHosting/events';
import { missingField } from '../payloadError';

const GITHUB_SIGNATURE = /^sha256=([0-9a-f]{64})$/i;

/** The hex digest an `X-Hub-Signature-256` header claims ("sha256=<hex>"), or null when it is missing or malformed. */
export function githubSignatureClaim(header: string | undefined): string | null {
  return typeof header === 'string' ? (GITHUB_SIGNATURE.exec(header.trim())?.[1] ?? null) : null;
}

/** HMAC-SHA256 of the raw body with the secret, compared in constant time against `X-Hub-Signature-256` ("sha256=<hex>"). False for a missing/malformed header or an empty secret. */
export function verifyGithubSignature(secret: string, rawBody: Buffer, header: string | undefined): boolean {
  if (typeof secret !== 'string' || secret.length === 0) return false;
  const claim = githubSignatureClaim(header);
  if (claim === null || !Buffer.isBuffer(rawBody)) return false;
  return matchesHmacSha256(secret, [rawBody], claim);
}

/** What the GitHub mapping needs beyond the delivery: the bot's name, for `/{botName}` commands. */
export interface GithubParseOptions {
  botName?: string;
}

/**
 * Maps a GitHub delivery (X-GitHub-Event header value + parsed JSON body). Returns null for
 * deliveries that trigger nothing (ping, other events, other pull_request actions like
 * labeled/edited/reopened, comments that are no command). Throws `PayloadError`
 * (naming the missing field) when a delivery that should trigger something lacks a field
 * the mapping needs.
 */
export function parseGithubEvent(eventName: string, body: unknown, options: GithubParseOptions = {}): CodeHostingEvent | null {
  const kind = typeof eventName === 'string' ? eventName.trim().toLowerCase() : '';
  if (kind === 'issue_comment') return parseCommand(body, options.botName ?? 'hangar');
  if (kind !== 'pull_request') return null;
  const root = asRecord(body);
  if (!root) throw missingField('body');
  const action = str(root.action);
  if (action === null) throw missingField('action');
  if (action !== 'opened' && action !== 'synchronize' && action !== 'closed') return null;

  const number = int(root.number);
  if (number === null) throw missingField('number');
  const pr = asRecord(root.pull_request);
  if (!pr) throw missingField('pull_request');
  const repo = repositoryOf(root);

  const event: TriggerEventName =
    action === 'opened'
      ? 'pull_request.opened'
      : action === 'synchronize'
        ? 'pull_request.synchronize'
        : bool(pr.merged) === true
          ? 'pull_request.merged'
          : 'pull_request.closed';
  const sender = str(asRecord(root.sender)?.login);
  const pullRequest = githubPullRequestPayload(number, pr);

  return {
    ...repo.event,
    event,
    number,
    actor: sender,
    headSha: pullRequest.head.sha,
    installationId: int(asRecord(root.installation)?.id),
    payload: { provider: 'github', event, action, repository: repo.payload, pull_request: pullRequest, sender },
  };
}

/**
 * A pull request as a run's trigger payload shows it, from GitHub's pull request object (the
 * `pull_request` of a webhook, or the answer of `GET /repos/{owner}/{repo}/pulls/{number}`).
 */
export function githubPullRequestPayload(number: number, pr: Record<string, unknown>) {
  const head = asRecord(pr.head);
  const base = asRecord(pr.base);
  return {
    number,
    title: str(pr.title),
    url: str(pr.html_url),
    state: str(pr.state),
    draft: bool(pr.draft),
    merged: bool(pr.merged),
    author: str(asRecord(pr.user)?.login),
    head: { ref: str(head?.ref), sha: str(head?.sha) },
    base: { ref: str(base?.ref), sha: str(base?.sha) },
    body: truncate(str(pr.body)),
  };
}

/** The repository of a delivery: its URL forms for matching, and how the payload names it. */
function repositoryOf(root: Record<string, unknown>) {
  const repo = asRecord(root.repository);
  const fullName = repo ? str(repo.full_name) : null;
  if (!repo || fullName === null) throw missingField('repository.full_name');
  return {
    event: {
      provider: 'github' as const,
      repositoryUrls: presentStrings([repo.html_url, repo.clone_url, repo.ssh_url, repo.git_url]),
      repositoryFullName: fullName,
      projectId: null,
    },
    payload: { full_name: fullName, url: str(repo.html_url) },
  };
}

/**
 * `issue_comment` → `pull_request.command`: a new comment on a pull request (an issue with a
 * `pull_request` key) whose first line is `/{botName} <text>`, by anyone but the bot itself.
 * The comment payload carries no head commit: `head` is null (the run opens no checks for it).
 */
function parseCommand(body: unknown, botName: string): CodeHostingEvent | null {
  const root = asRecord(body);
  if (!root) throw missingField('body');
  if (str(root.action) !== 'created') return null;
  const issue = asRecord(root.issue);
  if (!issue) throw missingField('issue');
  const link = asRecord(issue.pull_request);
  if (!link) return null;
  const comment = asRecord(root.comment);
  if (!comment) throw missingField('comment');
  const text = botCommand(str(comment.body), botName);
  if (text === null) return null;
  const commenter = str(asRecord(comment.user)?.login) ?? str(asRecord(root.sender)?.login);
  if (isBotAuthor(commenter, botName) || isBotAuthor(str(asRecord(root.sender)?.login), botName)) return null;
  const number = int(issue.number);
  if (number === null) throw missingField('issue.number');
  const repo = repositoryOf(root);
  const event: TriggerEventName = 'pull_request.command';

  return {
    ...repo.event,
    event,
    number,
    actor: commenter,
    headSha: null,
    installationId: int(asRecord(root.installation)?.id),
    payload: {
      provider: 'github',
      event,
      action: 'created',
      repository: repo.payload,
      pull_request: {
        number,
        title: str(issue.title),
        url: str(link.html_url) ?? str(issue.html_url),
        state: str(issue.state),
        draft: bool(issue.draft),
        merged: link.merged_at === undefined ? null : link.merged_at !== null,
        author: str(asRecord(issue.user)?.login),
        head: { ref: null, sha: null },
        base: { ref: null, sha: null },
        body: truncate(str(issue.body)),
      },
      command: { text, author: commenter, comment_id: int(comment.id), url: str(comment.html_url) },
      sender: commenter,
    },
  };
}
