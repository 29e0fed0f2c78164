/**
 * GitHub webhook deliveries: the `X-Hub-Signature-256` check and the mapping of pull_request
 * events to trigger events. Pure: the HTTP layer hands in headers and bodies.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { asRecord, bool, CodeHostingPayloadError, int, presentStrings, str, truncate, type CodeHostingEvent, type TriggerEventName } from '../codeHosting/events';

const GITHUB_SIGNATURE = /^sha256=([0-9a-f]{64})$/i;

/** HMAC-SHA256 of the raw body with the secret, compared in constant time against `X-Hub-Signature-256` ("sha256=<hex>"). False for a missing/malformed header or an empty secret. */
export function verifyGithubSignature(secret: string, rawBody: Buffer, header: string | undefined): boolean {
  if (typeof secret !== 'string' || secret.length === 0) return false;
  if (typeof header !== 'string' || !Buffer.isBuffer(rawBody)) return false;
  const match = GITHUB_SIGNATURE.exec(header.trim());
  if (!match) return false;
  const claimed = Buffer.from(match[1]!, 'hex');
  const actual = createHmac('sha256', secret).update(rawBody).digest();
  // Both are 32 bytes here (the regex pins the hex length), so timingSafeEqual cannot throw.
  return claimed.length === actual.length && timingSafeEqual(claimed, actual);
}

/** Maps a GitHub delivery (X-GitHub-Event header value + parsed JSON body). Returns null for deliveries that trigger nothing (ping, other events, other pull_request actions like labeled/edited/reopened). Throws `CodeHostingPayloadError` (export it; has a message naming the missing field) when a pull_request payload lacks required fields (number, repository.full_name, pull_request). */
export function parseGithubEvent(eventName: string, body: unknown): CodeHostingEvent | null {
  if (typeof eventName !== 'string' || eventName.trim().toLowerCase() !== 'pull_request') return null;
  const root = asRecord(body);
  if (!root) throw new CodeHostingPayloadError('body');
  const action = str(root.action);
  if (action === null) throw new CodeHostingPayloadError('action');
  if (action !== 'opened' && action !== 'synchronize' && action !== 'closed') return null;

  const number = int(root.number);
  if (number === null) throw new CodeHostingPayloadError('number');
  const pr = asRecord(root.pull_request);
  if (!pr) throw new CodeHostingPayloadError('pull_request');
  const repo = asRecord(root.repository);
  const fullName = repo ? str(repo.full_name) : null;
  if (!repo || fullName === null) throw new CodeHostingPayloadError('repository.full_name');

  const merged = bool(pr.merged);
  const event: TriggerEventName =
    action === 'opened'
      ? 'pull_request.opened'
      : action === 'synchronize'
        ? 'pull_request.synchronize'
        : merged === true
          ? 'pull_request.merged'
          : 'pull_request.closed';

  const head = asRecord(pr.head);
  const base = asRecord(pr.base);
  const sender = str(asRecord(root.sender)?.login);
  const headSha = str(head?.sha);

  return {
    provider: 'github',
    event,
    repositoryUrls: presentStrings([repo.html_url, repo.clone_url, repo.ssh_url, repo.git_url]),
    repositoryFullName: fullName,
    number,
    actor: sender,
    headSha,
    installationId: int(asRecord(root.installation)?.id),
    projectId: null,
    payload: {
      provider: 'github',
      event,
      action,
      repository: { full_name: fullName, url: str(repo.html_url) },
      pull_request: {
        number,
        title: str(pr.title),
        url: str(pr.html_url),
        state: str(pr.state),
        draft: bool(pr.draft),
        merged,
        author: str(asRecord(pr.user)?.login),
        head: { ref: str(head?.ref), sha: headSha },
        base: { ref: str(base?.ref), sha: str(base?.sha) },
        body: truncate(str(pr.body)),
      },
      sender,
    },
  };
}
