import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { variables } from '../../../src/config';
import { BEGIN_MARKER, END_MARKER, variablesTable, withVariablesTable } from '../../../src/config/docs';

/** docs/operations.md's table of variables is generated from the declarations; this fails when someone forgot `npm run config:docs`. */
describe('config: the docs table of variables', () => {
  const document = readFileSync(join(__dirname, '..', '..', '..', 'docs', 'operations.md'), 'utf8');

  it('is what the declared variables say (else run `npm run config:docs`)', () => {
    expect(document.includes(BEGIN_MARKER) && document.includes(END_MARKER), 'the markers').to.equal(true);
    const expected = withVariablesTable(document);
    if (expected !== document) {
      const current = document.split('\n');
      const line = expected.split('\n').findIndex((l, i) => l !== current[i]);
      expect.fail(`docs/operations.md's variables table is out of date from line ${line + 1} (run \`npm run config:docs\`):\n  docs: ${current[line]}\n  says: ${expected.split('\n')[line]}`);
    }
  });

  it('lists every declared variable once, with its default and bounds', () => {
    const table = variablesTable();
    for (const name of Object.keys(variables)) expect(table.split('\n').filter((line) => line.startsWith(`| \`${name}\` |`)), name).to.have.length(1);
    expect(table).to.include('| `PORT` | 8080 | 0–65535 |');
    expect(table).to.include('| `HANGAR_PREVIEW_DIAL` | `auto` | `auto`, `relay` |');
  });
});
