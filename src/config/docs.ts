/**
 * The table of variables in docs/operations.md ("Service settings"), rendered from the declared
 * variables: `npm run config:docs` writes it between the markers, and a unit test fails when the
 * docs differ from what the declarations say.
 */
import { sections } from './index';
import type { Schema, Variable } from './schema';

export const BEGIN_MARKER = '<!-- config:begin — generated from src/config by `npm run config:docs`; do not edit by hand -->';
export const END_MARKER = '<!-- config:end -->';

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

function row(name: string, variable: Variable<unknown>): string {
  const accepts = variable.accepts || variable.type;
  return `| \`${name}\` | ${cell(variable.shownDefault)} | ${cell(accepts)} | ${cell(variable.description)} |`;
}

/** One table per concept, its variables in their declared order. */
export function variablesTable(): string {
  const parts = sections.map((part) => {
    const rows = Object.entries(part.variables as Schema).map(([name, variable]) => row(name, variable));
    return [`**${part.title}**`, '', '| variable | default | accepts | what |', '|---|---|---|---|', ...rows].join('\n');
  });
  return parts.join('\n\n');
}

/** `document` with the generated block between the markers replaced by the current table. */
export function withVariablesTable(document: string): string {
  const begin = document.indexOf(BEGIN_MARKER);
  const end = document.indexOf(END_MARKER);
  if (begin < 0 || end < begin) throw new Error(`the document has no ${BEGIN_MARKER} … ${END_MARKER} block`);
  return `${document.slice(0, begin + BEGIN_MARKER.length)}\n\n${variablesTable()}\n\n${document.slice(end)}`;
}
