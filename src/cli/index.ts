/**
 * The user commands of `hangar` (everything but `hangar admin`): they go through the HTTP API
 * with the typed client, as any other client would, so the server decides what the key may see.
 */
import { parseArgs } from 'node:util';
import { HangarError } from '../../client/src';
import type { Command, OptionSpec } from './command';
import { clientFor, createOutput, DEFAULT_URL, resolveConnection } from './context';
import { CommandFailure, UsageError } from './format';
import { organizationCommands } from './organization';
import { replicaCommands } from './replicas';
import { workspaceCommands } from './workspace';

export { UsageError };

const COMMANDS: Command[] = [...replicaCommands, ...organizationCommands, ...workspaceCommands];

const COMMON: Record<string, OptionSpec> = {
  url: { type: 'string' },
  key: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
};

/** A command's usage lines; a line that starts with spaces continues the one above it. */
function usageOf(command: Command, prefix: string): string[] {
  return command.usage.map((u) => (u.startsWith(' ') ? `${' '.repeat(prefix.length)}${u.trimStart()}` : `${prefix}${u}`));
}

export function userUsage(): string {
  const lines = COMMANDS.flatMap((c) => [...usageOf(c, '  hangar '), `      ${c.summary}`]);
  return [
    'Usage: hangar <command> [options]',
    '',
    'Commands:',
    ...lines,
    '  hangar admin <command> ...',
    '      Operator commands that write the database directly (hangar admin help).',
    '  hangar mcp',
    "      Serve the replica tools to an MCP client over stdio (HANGAR_URL and HANGAR_API_KEY, else npm start's).",
    '',
    'Options of every command:',
    `  --url URL    Hangar's address (HANGAR_URL; default: npm start's, else ${DEFAULT_URL})`,
    '  --key KEY    an API key (HANGAR_API_KEY; default: the personal key in .hangar/dev-credentials.json)',
    "  --json       print the API's JSON answer instead of text",
    '',
    'create and send follow the workspace until it is ready and the turn has ended (--no-wait',
    'returns at once). Exit codes: 0 done, 1 refused by the API or failed, 2 wrong usage.',
  ].join('\n');
}

/** Runs one user command; the exit code. Writes `hangar: …` to stderr on failure. */
export async function runUserCommand(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === 'help' || name === '--help' || name === '-h') {
    process.stdout.write(userUsage() + '\n');
    return 0;
  }
  const command = COMMANDS.find((c) => c.name === name);
  let baseUrl: string | undefined;
  try {
    if (!command) throw new UsageError(`unknown command "${name}"`);
    let parsed;
    try {
      parsed = parseArgs({ args: rest, options: { ...COMMON, ...command.options }, allowPositionals: true, strict: true });
    } catch (err) {
      // parseArgs' own errors (an unknown option, a missing value) are wrong usage.
      throw new UsageError((err as Error).message);
    }
    const { values, positionals } = parsed;
    if (values.help === true) {
      process.stdout.write(`${usageOf(command, 'Usage: hangar ').join('\n')}\n${command.summary}\n`);
      return 0;
    }
    const connection = resolveConnection({ url: values.url as string | undefined, key: values.key as string | undefined }, process.env);
    baseUrl = connection.baseUrl;
    const out = createOutput(values.json === true);
    return (await command.run({ connection, client: clientFor(connection), out }, values, positionals)) ?? 0;
  } catch (err) {
    return report(err, command, baseUrl);
  }
}

function report(err: unknown, command: Command | undefined, baseUrl: string | undefined): number {
  if (err instanceof UsageError) {
    const usage = command ? usageOf(command, 'Usage: hangar ').join('\n') : userUsage();
    process.stderr.write(`hangar: ${err.message}\n\n${usage}\n`);
    return 2;
  }
  if (err instanceof HangarError) {
    process.stderr.write(`hangar: ${err.error}${err.details ? `: ${err.details}` : ''}${err.retryAfterSeconds !== null ? ` (retry after ${err.retryAfterSeconds} s)` : ''}\n`);
    return 1;
  }
  if (err instanceof CommandFailure) {
    process.stderr.write(`hangar: ${err.message}\n`);
    return 1;
  }
  // A network failure: fetch says only "fetch failed"; its cause says why (refused, DNS).
  const e = err as Error & { cause?: { code?: string; message?: string } };
  const cause = e.cause?.code ?? e.cause?.message;
  if (err instanceof TypeError && e.message === 'fetch failed') process.stderr.write(`hangar: cannot reach ${baseUrl ?? 'Hangar'}${cause ? `: ${cause}` : ''}\n`);
  else process.stderr.write(`hangar: ${e.message ?? String(err)}${cause ? ` (${cause})` : ''}\n`);
  return 1;
}
