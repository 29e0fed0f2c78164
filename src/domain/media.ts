/**
 * Rules about media and canvas files that need no I/O: a file's kind and MIME type from its
 * extension (interop §12), which canvas names may be read, upload filenames made safe, and the
 * headers a signed link serves a file with.
 */
import { invalid } from './errors';

export type CanvasKind = 'markdown' | 'html' | 'image' | 'video' | 'audio' | 'other';
export type MediaKind = 'image' | 'video' | 'audio' | 'other';

/** Above this a canvas read answers `tooLarge: true` without the bytes (interop §12: 5 MB). */
export const CANVAS_READ_LIMIT_BYTES = 5 * 1024 * 1024;
export const CANVAS_DIR = '/home/hangar/.hangar/canvas';

const TYPES: Record<string, { kind: CanvasKind; mime: string }> = {
  md: { kind: 'markdown', mime: 'text/markdown; charset=utf-8' },
  markdown: { kind: 'markdown', mime: 'text/markdown; charset=utf-8' },
  html: { kind: 'html', mime: 'text/html; charset=utf-8' },
  htm: { kind: 'html', mime: 'text/html; charset=utf-8' },
  png: { kind: 'image', mime: 'image/png' },
  jpg: { kind: 'image', mime: 'image/jpeg' },
  jpeg: { kind: 'image', mime: 'image/jpeg' },
  gif: { kind: 'image', mime: 'image/gif' },
  webp: { kind: 'image', mime: 'image/webp' },
  svg: { kind: 'image', mime: 'image/svg+xml' },
  mp4: { kind: 'video', mime: 'video/mp4' },
  webm: { kind: 'video', mime: 'video/webm' },
  mov: { kind: 'video', mime: 'video/quicktime' },
  mp3: { kind: 'audio', mime: 'audio/mpeg' },
  wav: { kind: 'audio', mime: 'audio/wav' },
  ogg: { kind: 'audio', mime: 'audio/ogg' },
  txt: { kind: 'other', mime: 'text/plain; charset=utf-8' },
  json: { kind: 'other', mime: 'application/json' },
  pdf: { kind: 'other', mime: 'application/pdf' },
};

const extension = (filename: string) => /\.([A-Za-z0-9]+)$/.exec(filename)?.[1]?.toLowerCase() ?? '';

export function kindOf(filename: string): CanvasKind {
  return TYPES[extension(filename)]?.kind ?? 'other';
}

export function mimeTypeOf(filename: string): string {
  return TYPES[extension(filename)]?.mime ?? 'application/octet-stream';
}

/** Canvas kinds read as UTF-8 text (`content`); every other kind is base64. */
export const isTextKind = (kind: CanvasKind) => kind === 'markdown' || kind === 'html';

/** A media file's kind: the uploader's when given, else by extension (markdown and html are `other`). */
export function mediaKindOf(filename: string, requested?: string): MediaKind {
  if (requested === 'image' || requested === 'video' || requested === 'audio') return requested;
  const kind = kindOf(filename);
  return kind === 'image' || kind === 'video' || kind === 'audio' ? kind : 'other';
}

/**
 * A canvas item's name as the URL gave it: one plain file name inside the directory. Anything
 * that could name another place (separators, `.`/`..`, NUL and control characters) is refused.
 */
export function checkCanvasFilename(name: string): string {
  if (name.length === 0 || name.length > 255 || name === '.' || name === '..' || /[/\\\u0000-\u001f\u007f]/.test(name)) {
    throw invalid('Invalid filename', 'filename: one file name inside the canvas directory, without separators or control characters');
  }
  return name;
}

/**
 * An uploaded file's stored name: the last path segment, control characters and characters
 * that are unsafe in headers or shells removed, at most 200 characters (extension kept).
 */
export function sanitizeFilename(raw: string): string {
  const base = raw.split(/[/\\]/).pop() ?? '';
  let name = base.replace(/[\u0000-\u001f\u007f"<>|*?:;`$]/g, '').replace(/\s+/g, ' ').trim().replace(/^\.+/, '');
  if (name.length > 200) {
    const ext = /\.[A-Za-z0-9]{1,10}$/.exec(name)?.[0] ?? '';
    name = name.slice(0, 200 - ext.length) + ext;
  }
  if (!name) throw invalid('Invalid filename', 'filename: give the file a name (query parameter `filename` or header X-Filename)');
  return name;
}

/** `Content-Disposition` with an ASCII fallback and the UTF-8 name (RFC 6266 / RFC 5987). */
export function contentDisposition(disposition: 'attachment' | 'inline', filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\%]/g, '_');
  const encoded = encodeURIComponent(filename).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${disposition}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/**
 * What a signed link answers with besides the bytes: never sniffed, and a policy under which an
 * HTML or SVG file opened on Hangar's origin runs no script and reaches nothing.
 */
export const MEDIA_SAFETY_HEADERS = {
  'X-Content-Type-Options': 'nosniff',
  'Content-Security-Policy': "default-src 'none'; img-src 'self' data:; media-src 'self'; style-src 'unsafe-inline'; sandbox",
  'Cross-Origin-Resource-Policy': 'same-site',
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'private, max-age=300',
} as const;

/** `Range: bytes=a-b` / `a-` / `-n` for one range; null for none or for what we do not serve (then the whole file). */
export function parseRange(header: string | undefined, total: number): { start: number; end: number } | 'unsatisfiable' | null {
  if (!header) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return null;
  if (match[1] === '') {
    const suffix = Number(match[2]);
    if (suffix === 0 || total === 0) return 'unsatisfiable';
    return { start: Math.max(total - suffix, 0), end: total - 1 };
  }
  const start = Number(match[1]);
  if (start >= total) return 'unsatisfiable';
  const end = match[2] === '' ? total - 1 : Number(match[2]);
  if (end < start) return null;
  return { start, end: Math.min(end, total - 1) };
}
