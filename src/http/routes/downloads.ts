import type { Context } from 'koa';
import { macDownloadParams, macUpdateParams, releaseFileParams, updateSchema } from '../../schemas/downloads';
import { DOWNLOAD_LINK_TTL_MS, type DownloadsService } from '../../services/downloads';
import { defineRoute, type Route } from '../route';

const tag = 'Downloads';
/** `bytes=a-b`, `bytes=a-` or `bytes=-n` within `size`; null for no range, 'unsatisfiable' for one outside the file. */
export function parseRange(header: string | undefined, size: number): { start: number; end: number } | null | 'unsatisfiable' {
  if (!header) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  // Several ranges or another unit: serve the whole file, as a server may.
  if (!match || (match[1] === '' && match[2] === '')) return null;
  if (match[1] === '') {
    const suffix = Number(match[2]);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(match[1]);
  const end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  if (start >= size || end < start) return 'unsatisfiable';
  return { start, end };
}

const contentDisposition = (name: string) =>
  `attachment; filename="${name.replace(/[^\x20-\x7e]|["\\]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(name)}`;

export function downloadRoutes(downloads: DownloadsService, options: { publicBaseUrl?: string }): Route[] {
  // The links are absolute: clients follow them from the 302 or the update answer.
  const fileUrl = (ctx: Context, token: string) => `${options.publicBaseUrl ?? `${ctx.protocol}://${ctx.host}`}/v1/desktop/files/${encodeURIComponent(token)}`;

  return [
    defineRoute({
      method: 'get',
      path: '/v1/desktop/download/macos/:arch',
      operationId: 'downloadMacDesktopApp',
      summary: 'Download the newest desktop app for macOS (a redirect to a short-lived link)',
      tag,
      auth: 'none',
      params: macDownloadParams,
      raw: true,
      response: { status: 302, description: `Redirect (Location) to a signed link valid for ${DOWNLOAD_LINK_TTL_MS / 60_000} minutes` },
      errors: [404, 503],
      handler: async ({ params, ctx }) => {
        const link = await downloads.macDownload(params.arch);
        ctx.set('Cache-Control', 'no-store');
        ctx.redirect(fileUrl(ctx, link.token));
      },
    }),
    defineRoute({
      method: 'get',
      path: '/v1/desktop/update/macos/:arch/:version',
      operationId: 'getMacDesktopUpdate',
      summary: 'Check for a newer desktop app for macOS',
      tag,
      auth: 'none',
      params: macUpdateParams,
      response: { status: 200, description: 'A newer version is available', schema: updateSchema, alternate: { status: 204, description: 'The installed version is current' } },
      errors: [400, 404, 503],
      handler: async ({ params, ctx, useAlternate }) => {
        const update = await downloads.macUpdate(params.arch, params.version);
        ctx.set('Cache-Control', 'no-store');
        if (!update) {
          useAlternate();
          return undefined;
        }
        return { url: fileUrl(ctx, update.token), name: update.name, notes: update.release.notes, pub_date: new Date(update.release.pub_date).toISOString() };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/v1/desktop/files/:token',
      operationId: 'getReleaseFile',
      summary: 'A published release file, through a signed link from the download or update operations',
      tag,
      auth: 'none',
      params: releaseFileParams,
      raw: true,
      response: { status: 200, description: 'The file (attachment; single byte ranges answer 206)', contentType: 'application/octet-stream' },
      errors: [404, 416, 503],
      handler: async ({ params, ctx }) => {
        const { name, file } = await downloads.open(params.token);
        ctx.set({ 'Content-Disposition': contentDisposition(name), 'Accept-Ranges': 'bytes', 'Cache-Control': 'private, no-store' });
        ctx.type = 'application/octet-stream';
        const range = parseRange(ctx.get('range') || undefined, file.size);
        if (range === 'unsatisfiable') {
          ctx.status = 416;
          ctx.set('Content-Range', `bytes */${file.size}`);
          ctx.body = { error: 'Range not satisfiable', details: `the file has ${file.size} bytes` };
          return;
        }
        if (range) {
          ctx.status = 206;
          ctx.set('Content-Range', `bytes ${range.start}-${range.end}/${file.size}`);
        } else {
          ctx.status = 200;
        }
        ctx.body = file.open(range ?? undefined);
        ctx.length = range ? range.end - range.start + 1 : file.size;
      },
    }),
  ];
}
