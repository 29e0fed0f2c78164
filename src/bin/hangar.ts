/**
 * The `hangar` command (scripts/hangar runs this file). `hangar admin ...` are the operator
 * commands, which open the database; everything else is a user command over the HTTP API
 * (src/cli). Each side is loaded only when used, so a user command never loads the database
 * drivers and the operator commands never need a server.
 */
async function main(argv: string[]): Promise<number> {
  if (argv[0] === 'admin') {
    const { runAdminCommand } = require('./hangarAdmin') as typeof import('./hangarAdmin');
    return runAdminCommand(argv.slice(1));
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
