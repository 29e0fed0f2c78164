/**
 * Where an environment file may be written: under the workspace user's home, spelled `~/…`.
 * Paths are normalised before they are stored and compared, so `~/a//./b` and `~/a/b` are
 * the same file (and collide on the unique index) instead of two rows for one file.
 */

export const NAME_MAX_BYTES = 255;

export type PathCheck = { ok: true; path: string } | { ok: false; reason: string };

export function normaliseHomePath(input: string, maxLength = 1024): PathCheck {
  if (input.includes('\0')) return { ok: false, reason: 'must not contain NUL characters' };
  // Control characters in a path break the scripts that materialise files; nobody needs them.
  if (/[\u0001-\u001f\u007f]/.test(input)) return { ok: false, reason: 'must not contain control characters' };
  if (input.length > maxLength) return { ok: false, reason: `must be at most ${maxLength} characters` };
  if (!input.startsWith('~/')) return { ok: false, reason: 'must start with ~/ (a path under the home directory, e.g. ~/workspaces/app/.env)' };
  if (input.endsWith('/')) return { ok: false, reason: 'must name a file, not a directory (no trailing /)' };
  const segments: string[] = [];
  for (const segment of input.slice(2).split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') return { ok: false, reason: 'must not contain .. segments' };
    if (Buffer.byteLength(segment, 'utf8') > NAME_MAX_BYTES) {
      return { ok: false, reason: `each path segment must be at most ${NAME_MAX_BYTES} bytes` };
    }
    segments.push(segment);
  }
  if (segments.length === 0) return { ok: false, reason: 'must name a file under ~/' };
  return { ok: true, path: `~/${segments.join('/')}` };
}

export function basename(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/**
 * A file cannot also be a directory of another file: with `~/a` stored, `~/a/b` cannot be
 * written (and the reverse). Returns a description of the clash, or null.
 */
export function fileDirectoryClash(path: string, others: Iterable<string>): string | null {
  for (const other of others) {
    if (path.startsWith(`${other}/`)) return `${other} is a file, so it cannot also be the directory of ${path}`;
    if (other.startsWith(`${path}/`)) return `${path} is the directory of ${other}, so it cannot also be a file`;
  }
  return null;
}
