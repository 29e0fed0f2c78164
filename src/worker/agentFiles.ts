/**
 * A turn's configuration files (the CLI's provider, MCP and instruction settings) are written
 * only when the workspace does not already hold them as they are. Writing costs a docker exec
 * before every turn; instead the CLI's own exec first checks the files' SHA-256 sums in the
 * container and, when one differs or is missing, prints a marker and exits before the CLI
 * starts. The turn then writes the files and starts the CLI again. A file edited in the
 * workspace between turns is therefore still replaced before the next turn.
 */
import { createHash } from 'node:crypto';
import type { AgentFile } from '../agents/adapters';
import { prepareWorkspaceFiles } from '../sandbox/workspace/files';

/** Printed (alone on stdout) by the check when the files must be written first. */
export const STALE_FILES_MARKER = 'hangar:agent-files-stale';
const STALE_EXIT = 97;

// `$1` holds `<sha256>  <path>` lines; the rest is the CLI's argv, exec'd in place of the shell.
const CHECK_SCRIPT = `printf '%s' "$1" | sha256sum --check --status 2>/dev/null || { echo ${STALE_FILES_MARKER}; exit ${STALE_EXIT}; }; shift; exec "$@"`;

/** `<sha256>  <absolute path>` lines, as `sha256sum --check` reads them. */
export function fileSums(files: AgentFile[]): string {
  return prepareWorkspaceFiles(files)
    .map((f) => `${createHash('sha256').update(f.content, 'utf8').digest('hex')}  ${f.path}\n`)
    .join('');
}

/** The CLI's argv behind the check of its files; the argv itself when it has none. */
export function checkedArgv(files: AgentFile[], argv: string[]): string[] {
  if (files.length === 0) return argv;
  return ['bash', '-c', CHECK_SCRIPT, 'hangar-agent-files', fileSums(files), ...argv];
}
