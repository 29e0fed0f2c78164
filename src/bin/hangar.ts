/**
 * The `hangar` command (scripts/hangar runs this file). `hangar admin ...` are the operator
 * commands, which open the database; `hangar mcp` serves the replica tools to an MCP client
 * on stdio (src/mcp); everything else is a user command over the HTTP API (src/cli). Each
 * side is loaded only when used, so a user command never loads the database drivers and the
 * operator commands never need a server.
 */
async function main(argv: string[]): Promise<number> {
  if (argv[0] === 'admin') {
    const { runAdminCommand } = require('./hangarAdmin') as typeof import('./hangarAdmin');
    return runAdminCommand(argv.slice(1));
  }
  if (argv[0] === 'mcp' && argv.length === 1) {
    // The replica tools as an MCP server on stdio: stdout carries only the protocol.
    const { serveStdio, stdioSettings } = require('../mcp/stdio') as typeof import('../mcp/stdio');
    const { version } = require('../../package.json') as { version: string };
    await serveStdio(stdioSettings(process.env), version);
    return 0;
  }
  const { runUserCommand } = require('../cli') as typeof import('../cli');
  return runUserCommand(argv);
}

/** Exits once stdout has taken everything (a pipe is asynchronous on macOS: exit would cut it). */
const exit = (code: number) => process.stdout.write('', () => process.exit(code));

main(process.argv.slice(2)).then(
  (code) => exit(code),
  (err: unknown) => {
    process.stderr.write(`hangar: ${(err as Error)?.message ?? String(err)}\n`);
    process.exit(1);
  },
);
