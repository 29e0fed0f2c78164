/** Code hosting (GitHub, GitLab) and the chat and issue trackers Hangar answers in (Slack, Linear). */
import { ConfigError, custom, section, text, url } from './schema';

/** A login-like name: letters, digits, `-` and `_`, 1 to 39 characters; a leading `@` is dropped. */
function botName(raw: string | undefined, name: string): string {
  const login = (raw ?? '').trim().replace(/^@/, '') || 'hangar';
  if (!/^[A-Za-z0-9][A-Za-z0-9_-]{0,38}$/.test(login)) throw new ConfigError(`${name} must be a login-like name (letters, digits, - and _), not ${JSON.stringify(raw)}`);
  return login;
}

export const integrations = section(
  'Code hosting and chat',
  {
    HANGAR_GITHUB_WEBHOOK_SECRET: text({ secret: true, description: 'secret of the GitHub webhook (`/v1/webhooks/github` answers 401 without it)' }),
    HANGAR_GITHUB_API_URL: url({ default: 'https://api.github.com', description: 'GitHub REST API base (GitHub Enterprise: `https://HOST/api/v3`)' }),
    HANGAR_GITHUB_APP_ID: text({ description: 'GitHub App for checks, with its private key; installation tokens are minted per installation' }),
    HANGAR_GITHUB_APP_PRIVATE_KEY: custom({
      type: 'secret',
      accepts: 'PEM (`\\n` escapes allowed)',
      description: "the GitHub App's private key",
      // PEM text; `\n` escapes are accepted so the key fits in one environment line.
      parse: (raw) => (raw ? raw.replace(/\\n/g, '\n') : undefined),
    }),
    HANGAR_GITHUB_TOKEN: text({
      secret: true,
      description:
        'alternative to the App: one token for every checks call; also used to fetch environment skills (without it skills are fetched unauthenticated: public repositories only, at GitHub\'s 60 requests an hour)',
    }),
    HANGAR_GITLAB_WEBHOOK_TOKEN: text({
      secret: true,
      description:
        'deprecated: the secret token of GitLab hooks for a deployment of **exactly one** organization. With two or more organizations it routes nothing (401, and a warning in the log): every organization that set hooks up with it would know it. Give each organization a GitLab connection instead ("GitLab" below)',
    }),
    HANGAR_GITLAB_API_URL: url({
      default: 'https://gitlab.com/api/v4',
      description: 'GitLab REST API base (self-managed: `https://HOST/api/v4`) for the deployment token, and for a GitLab connection without `instance_url`',
    }),
    HANGAR_GITLAB_TOKEN: text({
      secret: true,
      description:
        'GitLab access token (`PRIVATE-TOKEN`, scope `api`) that answers in the GitLab threads of an organization without a GitLab connection (a single-organization deployment on `HANGAR_GITLAB_WEBHOOK_TOKEN`); without it such mentions still start workspaces but nothing is posted back',
    }),
    HANGAR_BOT_NAME: custom({
      type: 'text',
      accepts: 'a login: letters, digits, `-`, `_` (a leading `@` is dropped)',
      shownDefault: '`hangar`',
      description:
        "the code-hosting bot's name: a pull request comment starting `/hangar ` (GitHub *Issue comments* events, GitLab *Comments* events on the hook) fires `pull_request.command` / `merge_request.command` automations; the bot's own comments (`hangar`, `hangar[bot]`) never do. The manual trigger's `pr` reads the pull request with the App (*Pull requests: read*, and `GET /repos/{owner}/{repo}/installation` for its installation) or `HANGAR_GITHUB_TOKEN`",
      parse: botName,
    }),
    HANGAR_LINEAR_API_URL: url({
      default: 'https://api.linear.app/graphql',
      description: "Linear's GraphQL endpoint, where Hangar comments on the issues assigned to it (a Linear connection's access token authenticates)",
    }),
    HANGAR_SLACK_API_URL: url({
      default: 'https://slack.com/api',
      description: "Slack's Web API base (`{url}/chat.postMessage` …); the tests point it at a local fake",
    }),
  },
  {},
  (read) => ({
    /** Code hosting: webhook verification and the Checks API (see docs/operations.md). */
    github: {
      webhookSecret: read.get('HANGAR_GITHUB_WEBHOOK_SECRET'),
      apiUrl: read.get('HANGAR_GITHUB_API_URL'),
      appId: read.get('HANGAR_GITHUB_APP_ID'),
      privateKeyPem: read.get('HANGAR_GITHUB_APP_PRIVATE_KEY'),
      token: read.get('HANGAR_GITHUB_TOKEN'),
    },
    /** GitLab: webhook verification, and the REST API (`HANGAR_GITLAB_API_URL`, `HANGAR_GITLAB_TOKEN`) Hangar answers issues and merge requests with. */
    gitlab: {
      webhookToken: read.get('HANGAR_GITLAB_WEBHOOK_TOKEN'),
      apiUrl: read.get('HANGAR_GITLAB_API_URL'),
      token: read.get('HANGAR_GITLAB_TOKEN'),
    },
    /** Linear's GraphQL endpoint (`HANGAR_LINEAR_API_URL`), where issue comments are posted. */
    linear: { apiUrl: read.get('HANGAR_LINEAR_API_URL') },
    /**
     * The bot's name on code hosting (`HANGAR_BOT_NAME`, default `hangar`): `@hangar` in an issue
     * or pull request starts or reaches its workspace, `/hangar …` on a pull request is a command.
     */
    botName: read.get('HANGAR_BOT_NAME'),
    /** Slack's Web API (`HANGAR_SLACK_API_URL`, default https://slack.com/api): tests point it at a local fake. */
    slack: { apiUrl: read.get('HANGAR_SLACK_API_URL') },
  }),
);
