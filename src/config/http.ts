/** The API's listener and what it accepts in a request. */
import { integer, section, text, url } from './schema';

const MiB = 1024 * 1024;

export const http = section(
  'HTTP API',
  {
    PORT: integer({ default: 8080, min: 0, max: 65535, description: 'the port the API listens on' }),
    HOST: text({ default: '0.0.0.0', description: 'the address the API listens on' }),
    HANGAR_PUBLIC_URL: url({
      asGiven: true,
      description: "the API's public URL, given to workspaces as `HANGAR_API_URL`",
    }),
    HANGAR_BODY_LIMIT_BYTES: integer({
      default: MiB,
      min: 1024,
      max: 64 * MiB,
      shownDefault: '1048576 (1 MiB)',
      description: 'JSON request bodies of every operation that names no other limit (413 naming the limit beyond)',
    }),
    HANGAR_MESSAGE_BODY_LIMIT_BYTES: integer({
      default: 32 * MiB,
      min: 1024,
      max: 256 * MiB,
      shownDefault: '33554432 (32 MiB)',
      description:
        "bodies of the operations that carry a message's images inline: `POST /v1/replica`, `POST /v1/replica/{id}/messages`, and the workspace chat and deferred messages",
    }),
    HANGAR_CODE_HOSTING_BODY_LIMIT_BYTES: integer({
      default: 25 * MiB,
      min: 1024,
      max: 256 * MiB,
      shownDefault: "26214400 (25 MiB, GitHub's documented cap)",
      description:
        'GitHub and GitLab deliveries (`/v1/webhooks/github`, `/v1/webhooks/gitlab`). The custom webhook (256 KiB), Slack (512 KiB), Linear (1 MiB) and Sentry (5 MiB) have fixed limits',
    }),
    HANGAR_MAX_UNVERIFIED_BODIES: integer({
      default: 64,
      min: 1,
      max: 100_000,
      description:
        "webhook bodies an API process reads at once before their signature is verified (GitHub, Slack, Linear, Sentry); past it, 503 with `Retry-After: 5`, before any byte is read. A GitHub body under verification keeps at most 256 KiB in memory; the rest waits in a file under the OS's temporary directory (`TMPDIR`) until the signature matches, and is removed after the request",
    }),
    HANGAR_LEGACY_CREATE_TIMEOUT_SECONDS: integer({ default: 600, min: 1, max: 3600, description: 'how long a create without `X-Api-Version` waits for its workspace' }),
  },
  {},
  (read) => ({
    port: read.get('PORT'),
    host: read.get('HOST'),
    /** `HANGAR_PUBLIC_URL` as given. */
    publicBaseUrl: read.get('HANGAR_PUBLIC_URL'),
    /** Ordinary JSON bodies (`HANGAR_BODY_LIMIT_BYTES`, 1 MiB). */
    bodyLimitBytes: read.get('HANGAR_BODY_LIMIT_BYTES'),
    /** Bodies of the operations that carry a message's images (`HANGAR_MESSAGE_BODY_LIMIT_BYTES`, 32 MiB). */
    messageBodyLimitBytes: read.get('HANGAR_MESSAGE_BODY_LIMIT_BYTES'),
    /** GitHub and GitLab deliveries (`HANGAR_CODE_HOSTING_BODY_LIMIT_BYTES`, 25 MiB: GitHub's documented cap). */
    codeHostingBodyLimitBytes: read.get('HANGAR_CODE_HOSTING_BODY_LIMIT_BYTES'),
    /** Webhook bodies read at once before their signature is verified (`HANGAR_MAX_UNVERIFIED_BODIES`, 64); past it, 503. */
    maxUnverifiedBodies: read.get('HANGAR_MAX_UNVERIFIED_BODIES'),
    /** How long a legacy create (no X-Api-Version) waits for the workspace. */
    legacyCreateTimeoutMs: read.get('HANGAR_LEGACY_CREATE_TIMEOUT_SECONDS') * 1000,
  }),
);
