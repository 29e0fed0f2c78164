/**
 * GitHub deliveries as threads: issues and pull requests opened, comments on them (issue
 * comments and review comments), their closing, and failed checks on pull requests. Beside
 * `./events` (which maps pull_request events to automation triggers): the same verified
 * delivery feeds both. Pure: the receiver hands in the event name and the parsed body.
 */
import { asRecord, int, presentStrings, str } from '../codeHosting/events';
import {
  accountId,
  githubThreadKey,
  hasMarker,
  isTrustedAssociation,
  loginKey,
  type CiFailure,
  type CodeHostingThreadEvent,
  type ThreadItem,
  type ThreadPerson,
  type ThreadPost,
  type ThreadRepository,
} from '../codeHosting/threads';
import { missingField } from '../payloadError';

/** Check conclusions that mean the pull request's CI is broken. */
const FAILED = new Set(['failure', 'timed_out', 'startup_failure']);

type Fields = Record<string, unknown>;

function repositoryOf(root: Fields): ThreadRepository {
  const repo = asRecord(root.repository);
  const fullName = repo ? str(repo.full_name) : null;
  if (!repo || fullName === null) throw missingField('repository.full_name');
  return {
    provider: 'github',
    repositoryUrls: presentStrings([repo.html_url, repo.clone_url, repo.ssh_url, repo.git_url]),
    repositoryFullName: fullName,
    installationId: int(asRecord(root.installation)?.id),
  };
}

function itemOf(fullName: string, raw: unknown, field: string, isPullRequest: boolean): ThreadItem {
  const item = asRecord(raw);
  const number = int(item?.number);
  if (!item || number === null) throw missingField(`${field}.number`);
  return { threadKey: githubThreadKey(fullName, number), number, isPullRequest, title: str(item.title), body: str(item.body), url: str(item.html_url) };
}

function personOf(raw: unknown, field: string): ThreadPerson & { bot: boolean } {
  const user = asRecord(raw);
  const login = str(user?.login);
  if (!user || !login) throw missingField(`${field}.login`);
  const id = accountId(user.id);
  if (id === null) throw missingField(`${field}.id`);
  return { id, login, name: str(user.name), email: str(user.email), bot: user.type === 'Bot' };
}

function senderOf(user: Fields | null): CiFailure['sender'] {
  const id = accountId(user?.id);
  const login = str(user?.login);
  return id !== null && login ? { id, login } : null;
}

/** A post is the bot's own (or any bot's) when GitHub says so, it is signed `{bot}`/`{bot}[bot]`, or it carries Hangar's marker. */
function isBotPost(author: { login: string; bot: boolean }, text: string | null, botName: string): boolean {
  const who = loginKey(author.login);
  return author.bot || who === loginKey(botName) || who === `${loginKey(botName)}[bot]` || hasMarker(text);
}

function post(
  repo: ThreadRepository,
  trigger: ThreadPost['trigger'],
  item: ThreadItem,
  source: Fields,
  field: string,
  cursor: string,
  botName: string,
): ThreadPost {
  const author = personOf(source.user, `${field}.user`);
  const text = str(source.body) ?? '';
  return {
    ...repo,
    kind: 'post',
    trigger,
    item,
    text,
    author: { id: author.id, login: author.login, name: author.name, email: author.email },
    trusted: isTrustedAssociation(source.author_association),
    fromBot: isBotPost(author, text, botName),
    cursor,
    commentUrl: trigger === 'comment' ? str(source.html_url) : null,
  };
}

/** A failed check run or check suite on one or more pull requests of the repository. */
function ciFailure(repo: ThreadRepository, check: Fields, kind: 'check_run' | 'check_suite', root: Fields): CiFailure | null {
  if (check.status !== 'completed' || !FAILED.has(str(check.conclusion) ?? '')) return null;
  // A suite with check runs is reported by its runs (each with its own name and summary).
  if (kind === 'check_suite' && (int(check.latest_check_runs_count) ?? 0) > 0) return null;
  const suite = kind === 'check_run' ? asRecord(check.check_suite) : check;
  const prs = Array.isArray(check.pull_requests) ? check.pull_requests : Array.isArray(suite?.pull_requests) ? suite.pull_requests : [];
  const pullRequests = prs
    .map((pr) => int(asRecord(pr)?.number))
    .filter((n): n is number => n !== null)
    .map((number) => ({ threadKey: githubThreadKey(repo.repositoryFullName, number), number }));
  if (!pullRequests.length) return null;
  const id = int(check.id);
  const output = asRecord(check.output);
  const appName = str(asRecord(check.app)?.name);
  const repoUrl = str(asRecord(root.repository)?.html_url);
  const summary = [str(output?.title), str(output?.summary)].filter((s): s is string => !!s?.trim()).join('\n\n') || null;
  return {
    ...repo,
    kind: 'ci_failed',
    pullRequests,
    name: (kind === 'check_run' ? str(check.name) : appName ? `${appName} check suite` : null) ?? kind,
    conclusion: str(check.conclusion)!,
    summary,
    url: str(check.html_url) ?? str(check.details_url) ?? (repoUrl ? `${repoUrl}/pull/${pullRequests[0]!.number}/checks` : null),
    headSha: str(check.head_sha),
    cursor: `${kind}:${id ?? 'unknown'}`,
    sender: senderOf(asRecord(root.sender)),
  };
}

/**
 * Maps a delivery (X-GitHub-Event + body) to a thread event, or null when it concerns no
 * thread: `issues` opened/closed, `issue_comment` created, `pull_request` opened/closed,
 * `pull_request_review_comment` created, `check_run`/`check_suite` completed with a failure.
 * Throws `PayloadError` when such a delivery lacks a field the mapping needs.
 */
export function parseGithubThreadEvent(eventName: string, body: unknown, botName: string): CodeHostingThreadEvent | null {
  const event = typeof eventName === 'string' ? eventName.trim().toLowerCase() : '';
  const root = asRecord(body);
  if (!root) return null;
  const action = str(root.action);

  switch (event) {
    case 'issues': {
      if (action !== 'opened' && action !== 'closed') return null;
      const repo = repositoryOf(root);
      const item = itemOf(repo.repositoryFullName, root.issue, 'issue', false);
      if (action === 'closed') return { ...repo, kind: 'close', threadKey: item.threadKey };
      return post(repo, 'opened', item, asRecord(root.issue)!, 'issue', `issue:${item.number}`, botName);
    }
    case 'pull_request': {
      if (action !== 'opened' && action !== 'closed') return null;
      const repo = repositoryOf(root);
      const item = itemOf(repo.repositoryFullName, root.pull_request, 'pull_request', true);
      if (action === 'closed') return { ...repo, kind: 'close', threadKey: item.threadKey };
      return post(repo, 'opened', item, asRecord(root.pull_request)!, 'pull_request', `issue:${item.number}`, botName);
    }
    case 'issue_comment': {
      if (action !== 'created') return null;
      const repo = repositoryOf(root);
      const issue = asRecord(root.issue);
      const item = itemOf(repo.repositoryFullName, issue, 'issue', asRecord(issue?.pull_request) !== null);
      const comment = asRecord(root.comment);
      const id = int(comment?.id);
      if (!comment || id === null) throw missingField('comment.id');
      return post(repo, 'comment', item, comment, 'comment', `issue_comment:${id}`, botName);
    }
    case 'pull_request_review_comment': {
      if (action !== 'created') return null;
      const repo = repositoryOf(root);
      const item = itemOf(repo.repositoryFullName, root.pull_request, 'pull_request', true);
      const comment = asRecord(root.comment);
      const id = int(comment?.id);
      if (!comment || id === null) throw missingField('comment.id');
      return post(repo, 'comment', item, comment, 'comment', `pull_request_review_comment:${id}`, botName);
    }
    case 'check_run':
    case 'check_suite': {
      if (action !== 'completed') return null;
      const check = asRecord(root[event]);
      if (!check) throw missingField(event);
      return ciFailure(repositoryOf(root), check, event, root);
    }
    default:
      return null;
  }
}
