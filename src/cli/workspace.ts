/** What a workspace shares: previews of its ports and the media files its agent left. */
import { createWriteStream, existsSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { flag, stringOption, subcommand, type Command } from './command';
import { CommandFailure, integerOption, positional, shortTime, table, UsageError } from './format';

function portArgument(positionals: string[], index: number): number {
  const port = integerOption('port', positional(positionals, index, 'port'));
  if (port === undefined || port > 65535) throw new UsageError('<port> must be a port number (1-65535)');
  return port;
}

const preview: Command = {
  name: 'preview',
  usage: ['preview [list] <id>', 'preview create <id> <port> [--members-only]', 'preview delete <id> <port>', 'preview link <id> <port> [--expires SECONDS]'],
  summary: "A workspace's shared ports: list, share, stop sharing, or a signed link that opens one in a browser",
  options: { 'members-only': { type: 'boolean' }, expires: { type: 'string' } },
  async run(ctx, values, positionals) {
    // `preview <id>` lists: a UUID is not a subcommand.
    const args = positionals.length === 1 ? ['list', ...positionals] : positionals;
    const action = subcommand(args, ['list', 'create', 'delete', 'link'] as const);
    const workspaceId = positional(args, 1, 'id');
    const api = ctx.client.api;
    switch (action) {
      case 'list': {
        const answer = await ctx.client.call(api.GET('/v1/workspaces/{workspaceId}/previews', { params: { path: { workspaceId } } }));
        ctx.out.data(answer);
        if (answer.previews.length === 0) return void ctx.out.text('No shared ports.');
        ctx.out.text(table(['PORT', 'ACCESS', 'CREATED', 'URL'], answer.previews.map((p) => [p.port, p.authenticated ? 'members' : 'public', shortTime(p.created_at), p.url])));
        return;
      }
      case 'create': {
        const port = portArgument(args, 2);
        const answer = await ctx.client.call(
          api.POST('/v1/workspaces/{workspaceId}/previews', { params: { path: { workspaceId } }, body: { port, authenticated: flag(values, 'members-only') } }),
        );
        ctx.out.data(answer);
        ctx.out.text(`port ${port} shared${answer.preview.authenticated ? ' (members only)' : ''}: ${answer.preview.url}`);
        return;
      }
      case 'delete': {
        const port = portArgument(args, 2);
        const answer = await ctx.client.call(api.DELETE('/v1/workspaces/{workspaceId}/previews/{port}', { params: { path: { workspaceId, port } } }));
        ctx.out.data(answer);
        ctx.out.text(`port ${port} no longer shared`);
        return;
      }
      case 'link': {
        const port = portArgument(args, 2);
        const expires = integerOption('expires', stringOption(values, 'expires'));
        const answer = await ctx.client.call(
          api.POST('/v1/workspaces/{workspaceId}/previews/{port}/links', { params: { path: { workspaceId, port } }, body: expires ? { expires_in_seconds: expires } : {} }),
        );
        ctx.out.data(answer);
        ctx.out.text(`${answer.link.url}  (until ${shortTime(answer.link.expires_at)})`);
        return;
      }
    }
  },
};

/** The media's own name, stripped of any directory part it was uploaded with. */
function safeFilename(name: string): string {
  const base = basename(name.replace(/\\/g, '/'));
  if (base === '' || base === '.' || base === '..') throw new CommandFailure(`the media file's name "${name}" cannot be used as a file name here; pass --output`);
  return base;
}

const media: Command = {
  name: 'media',
  usage: ['media [list] <id> [--page N] [--limit N]', 'media download <id> <media-id> [--output FILE|-] [--force]'],
  summary: 'Media files of a workspace: list them, or download one (through a short-lived signed link)',
  options: { output: { type: 'string', short: 'o' }, force: { type: 'boolean' }, page: { type: 'string' }, limit: { type: 'string' } },
  async run(ctx, values, positionals) {
    const args = positionals.length === 1 ? ['list', ...positionals] : positionals;
    const action = subcommand(args, ['list', 'download'] as const);
    const id = positional(args, 1, 'id');
    const api = ctx.client.api;
    if (action === 'list') {
      const answer = await ctx.client.call(
        api.GET('/v1/replica/{id}/media', {
          params: { path: { id }, query: { page: integerOption('page', stringOption(values, 'page')), limit: integerOption('limit', stringOption(values, 'limit')) } },
        }),
      );
      ctx.out.data(answer);
      if (answer.media.length === 0) return void ctx.out.text('No media files.');
      ctx.out.text(table(['ID', 'KIND', 'SIZE', 'CREATED', 'NAME'], answer.media.map((m) => [m.id, m.kind, m.size_bytes, shortTime(m.created_at), m.filename])));
      if (answer.totalPages > 1) ctx.out.text(`page ${answer.page} of ${answer.totalPages} (${answer.total} files; --page N for more)`);
      return;
    }
    const mediaId = positional(args, 2, 'media-id');
    const path = { params: { path: { id, mediaId } } };
    const { media: file } = await ctx.client.call(api.GET('/v1/replica/{id}/media/{mediaId}', path));
    const output = stringOption(values, 'output') ?? safeFilename(file.filename);
    const toStdout = output === '-';
    if (!toStdout && existsSync(output) && !flag(values, 'force')) throw new CommandFailure(`${output} exists; pass --force to replace it, or --output`);
    if (toStdout && ctx.out.json) throw new UsageError('--output - and --json both write to standard output; pick one');
    const link = await ctx.client.call(api.POST('/v1/replica/{id}/media/{mediaId}/links', { ...path, body: { disposition: 'attachment' } }));
    // The signed link is the permission: the bytes are fetched without the API key.
    const response = await fetch(link.url);
    if (!response.ok || !response.body) throw new CommandFailure(`downloading ${file.filename} failed: HTTP ${response.status}`);
    const body = Readable.fromWeb(response.body as WebReadableStream<Uint8Array>);
    if (toStdout) {
      await pipeline(body, process.stdout, { end: false });
      return;
    }
    await pipeline(body, createWriteStream(output));
    ctx.out.data({ media: file, saved_to: resolve(output) });
    ctx.out.text(`saved ${output} (${file.size_bytes} bytes, ${file.mime_type})`);
  },
};

export const workspaceCommands: Command[] = [preview, media];
