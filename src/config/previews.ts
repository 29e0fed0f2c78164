/**
 * Where previews answer (docs/decisions/previews.md, "Preview origins"): never on the API's origin. The
 * host form under `HANGAR_PREVIEW_DOMAIN`, else under `localhost`; the path form only on a
 * listener of its own, and answers name it when no domain is set. Previews on other worker
 * hosts go through their relays.
 */
import { DEFAULT_PREVIEW_DOMAIN, hostName } from '../domain/previews';
import { http } from './http';
import { choice, ConfigError, custom, integer, section, text, url, type Reader } from './schema';

const LABEL = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
const DOMAIN = new RegExp(`^${LABEL}(?:\\.${LABEL})+$`);

/** A DNS name (lower case, no scheme, port or wildcard) under which preview hosts live; undefined when unset. */
function previewDomain(raw: string | undefined, name: string): string | undefined {
  if (!raw) return undefined;
  const domain = raw.trim().toLowerCase().replace(/\.$/, '');
  if (domain === DEFAULT_PREVIEW_DOMAIN) return domain;
  if (!DOMAIN.test(domain) || domain.length > 200) {
    throw new ConfigError(`${name} must be a domain name such as preview.example.com (no scheme, port or *), got "${raw}"`);
  }
  return domain;
}

const variables = {
  HANGAR_PREVIEW_DOMAIN: custom({
    type: 'domain',
    accepts: 'a domain name, no scheme, port or `*`',
    shownDefault: `\`${DEFAULT_PREVIEW_DOMAIN}\``,
    description:
      "previews answer at `{port}-{token}.{domain}`, each on an origin of its own (a real domain needs wildcard DNS `*.{domain}` and a wildcard certificate pointing at the API; `*.localhost` needs nothing, but opens only in a browser on the API's own machine). A plain domain (`preview.example.com`); `HANGAR_PUBLIC_URL` may not lie under it",
    parse: previewDomain,
  }),
  HANGAR_PREVIEW_PORT: integer({
    min: 1,
    max: 65535,
    shownDefault: 'off',
    description:
      "the path form `/preview/{token}/` on a listener of its own (never the API's port or origin); without `HANGAR_PREVIEW_DOMAIN`, answers name this form",
  }),
  HANGAR_PREVIEW_HOST: text({ shownDefault: '`HOST`', description: "the preview listener's bind address (needs `HANGAR_PREVIEW_PORT`)" }),
  HANGAR_PREVIEW_URL: url({
    shownDefault: "Hangar's base URL on that port",
    description: "the preview listener's public base when a front serves it elsewhere (needs `HANGAR_PREVIEW_PORT`); it must not be `HANGAR_PUBLIC_URL`'s origin",
  }),
  HANGAR_WORKER_RELAY_PORT: integer({
    min: 1,
    max: 65535,
    shownDefault: 'off',
    description: 'the port of the worker\'s preview relay ("Several worker hosts"); needs `HANGAR_WORKER_RELAY_URL`',
  }),
  HANGAR_WORKER_RELAY_HOST: text({ default: '0.0.0.0', description: "the preview relay's bind address" }),
  HANGAR_WORKER_RELAY_URL: url({
    description: 'the origin API processes reach the preview relay at (required with the port; advertised in `worker_hosts`), e.g. `http://worker-1:9470`',
  }),
  HANGAR_PREVIEW_DIAL: choice({
    values: ['auto', 'relay'],
    default: 'auto',
    description:
      "API: `auto` sends preview traffic to the relay of the workspace's host when it has one, else to the container; `relay` never dials a container (502 without a relay)",
  }),
};

const borrowed = { PORT: http.variables.PORT, HOST: http.variables.HOST, HANGAR_PUBLIC_URL: http.variables.HANGAR_PUBLIC_URL };

type Read = Reader<typeof variables & typeof borrowed>;

export const previews = section(
  'Previews',
  variables,
  borrowed,
  (read) => {
    const domain = read.get('HANGAR_PREVIEW_DOMAIN');
    const publicUrl = read.get('HANGAR_PUBLIC_URL');
    if (domain && publicUrl && hostName(new URL(publicUrl).host).endsWith(`.${domain}`)) {
      throw new ConfigError(`HANGAR_PUBLIC_URL must not lie under HANGAR_PREVIEW_DOMAIN (${domain}): every host there is a preview's`);
    }
    const hasPort = read.isSet('HANGAR_PREVIEW_PORT');
    if (!hasPort && (read.isSet('HANGAR_PREVIEW_URL') || read.isSet('HANGAR_PREVIEW_HOST'))) {
      throw new ConfigError('HANGAR_PREVIEW_URL and HANGAR_PREVIEW_HOST need HANGAR_PREVIEW_PORT (the path-form listener)');
    }
    let previewListener: { port: number; host: string; url: string | undefined } | null = null;
    if (hasPort) {
      const port = read.get('HANGAR_PREVIEW_PORT')!;
      if (port === read.get('PORT')) throw new ConfigError("HANGAR_PREVIEW_PORT must differ from PORT: previews never share the API's origin");
      const previewUrl = read.get('HANGAR_PREVIEW_URL');
      if (previewUrl && publicUrl && new URL(previewUrl).origin === new URL(publicUrl).origin) {
        throw new ConfigError(
          "HANGAR_PREVIEW_URL must be an origin of its own (another host or port than HANGAR_PUBLIC_URL): previews never share the API's origin",
        );
      }
      previewListener = { port, host: read.get('HANGAR_PREVIEW_HOST') ?? read.get('HOST'), url: previewUrl };
    }
    return {
      /**
       * `HANGAR_PREVIEW_DOMAIN` (default `localhost`): previews answer at `{port}-{token}.{domain}` on
       * the API's listener, each on an origin of its own (wildcard DNS; `*.localhost` needs none).
       */
      previewDomain: domain ?? DEFAULT_PREVIEW_DOMAIN,
      /**
       * `HANGAR_PREVIEW_PORT` (unset: off), `HANGAR_PREVIEW_HOST` (default `HOST`), `HANGAR_PREVIEW_URL`
       * (default: Hangar's base URL on that port): the path form `/preview/{token}/`, on a listener of
       * its own, never the API's origin.
       */
      previewListener,
      /** Which form preview URLs take: `host` with a domain set or no listener, else `path` (on the listener). */
      previewUrls: (previewListener && !domain ? 'path' : 'host') as 'host' | 'path',
      /**
       * Previews on other hosts (docs/operations.md, "Several worker hosts"). `HANGAR_WORKER_RELAY_PORT`
       * (unset: off) and `HANGAR_WORKER_RELAY_HOST` (default 0.0.0.0): the worker's preview relay;
       * `HANGAR_WORKER_RELAY_URL`: where API processes reach it, advertised in `worker_hosts`.
       */
      previewRelay: previewRelay(read),
      /**
       * `HANGAR_PREVIEW_DIAL` (API): `auto` (default) goes through the relay of the workspace's host
       * when it has one, else straight to the container; `relay` never dials a container itself (a
       * host without a relay answers 502).
       */
      previewDial: read.get('HANGAR_PREVIEW_DIAL'),
    };
  },
);

/**
 * The worker's preview relay: a port and the URL API processes reach it at go together (the
 * bind address is rarely the address others dial: a container's 0.0.0.0 behind its service name).
 */
function previewRelay(read: Read): { port: number; host: string; url: string } | null {
  const hasPort = read.isSet('HANGAR_WORKER_RELAY_PORT');
  const hasUrl = read.isSet('HANGAR_WORKER_RELAY_URL');
  if (!hasPort && !hasUrl) return null;
  if (!hasPort) throw new ConfigError('HANGAR_WORKER_RELAY_URL needs HANGAR_WORKER_RELAY_PORT (the port the relay listens on)');
  const port = read.get('HANGAR_WORKER_RELAY_PORT')!;
  if (!hasUrl) throw new ConfigError('HANGAR_WORKER_RELAY_PORT needs HANGAR_WORKER_RELAY_URL: the http(s) address API processes reach this relay at, e.g. http://worker-1:9470');
  const url = read.get('HANGAR_WORKER_RELAY_URL')!;
  const parsed = new URL(url);
  if ((parsed.pathname !== '/' && parsed.pathname !== '') || parsed.search || parsed.hash || parsed.username || parsed.password) {
    throw new ConfigError(`HANGAR_WORKER_RELAY_URL must be an origin (scheme, host and port only), got "${url}"`);
  }
  return { port, host: read.get('HANGAR_WORKER_RELAY_HOST'), url: parsed.origin };
}
