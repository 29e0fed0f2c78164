// A tiny element builder: text always goes in as text nodes, never as HTML, so nothing the
// API returns (names, prompts, agent output) can inject markup.

export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs ?? {})) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith('on') && typeof value === 'function') el.addEventListener(name.slice(2), value);
    else if (value === true) el.setAttribute(name, '');
    else el.setAttribute(name, String(value));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Replaces the children of `el`. */
export function fill(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

export function when(iso) {
  return iso ? new Date(iso).toLocaleString() : '—';
}

/** A table from rows: `columns` are `[header, (row) => cell]`. */
export function table(rows, columns, empty = 'Nothing yet.') {
  if (rows.length === 0) return h('p', { class: 'muted' }, empty);
  return h(
    'table',
    {},
    h('thead', {}, h('tr', {}, columns.map(([title]) => h('th', {}, title)))),
    h('tbody', {}, rows.map((row) => h('tr', {}, columns.map(([, cell]) => h('td', {}, cell(row)))))),
  );
}

/** An error line for a failed call (the API's `error: details`). */
export function errorLine(err) {
  return h('p', { class: 'error', role: 'alert' }, err instanceof Error ? err.message : String(err));
}

export function status(value) {
  return h('span', { class: `status status-${value}` }, value);
}
