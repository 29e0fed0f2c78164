/**
 * The variables table of docs/operations.md comes from the declared configuration (src/config).
 * `generate` writes it between the markers; `check` fails when the checked-in docs differ from
 * what the declarations say (test/unit/config/docs.test.ts checks the same on every unit run).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { withVariablesTable } from '../src/config/docs';

export const OPERATIONS_DOC = join(__dirname, '..', 'docs', 'operations.md');

function main(mode: string | undefined): void {
  const current = readFileSync(OPERATIONS_DOC, 'utf8');
  const expected = withVariablesTable(current);
  if (mode === 'generate') {
    if (current === expected) {
      console.log('config: docs/operations.md already lists the declared variables');
      return;
    }
    writeFileSync(OPERATIONS_DOC, expected);
    console.log(`config: wrote the variables table of ${OPERATIONS_DOC}`);
    return;
  }
  if (mode === 'check') {
    if (current !== expected) {
      console.error('config: docs/operations.md differs from the variables src/config declares; run `npm run config:docs` and commit it');
      process.exit(1);
    }
    console.log('config: docs/operations.md lists the declared variables');
    return;
  }
  console.error('usage: tsx scripts/configDocs.ts generate|check');
  process.exit(2);
}

if (require.main === module) main(process.argv[2]);
