/**
 * Just enough GraphQL for the fake Linear: one operation (query or mutation) with variable
 * definitions, fields with arguments (variables or literals) and nested selections; the answer
 * holds exactly the fields selected, and errors come in Linear's shape
 * (`{message, extensions: {code, …}}`). Fragments and directives are refused.
 */

export interface GraphqlError {
  message: string;
  extensions?: Record<string, unknown>;
  path?: string[];
}

export class ResolverError extends Error {
  constructor(readonly error: GraphqlError) {
    super(error.message);
  }
}

export type Resolvers = Record<string, (args: Record<string, unknown>) => unknown>;

/** Which root fields belong to mutations (the rest are queries). */
const MUTATIONS = new Set(['commentCreate']);

interface Field {
  alias: string;
  name: string;
  args: Record<string, unknown>;
  selections: Field[] | null;
}

const PUNCTUATION = new Set(['{', '}', '(', ')', '[', ']', ':', '!', '$', '=', '@']);

function tokenize(source: string): string[] {
  const tokens: string[] = [];
  let i = 0;
  while (i < source.length) {
    const c = source[i]!;
    if (/[\s,]/.test(c)) i++;
    else if (c === '#') while (i < source.length && source[i] !== '\n') i++;
    else if (source.startsWith('...', i)) throw validation('Fragments are not supported by this server');
    else if (PUNCTUATION.has(c)) tokens.push(source[i++]!);
    else if (c === '"') {
      let j = i + 1;
      while (j < source.length && source[j] !== '"') j += source[j] === '\\' ? 2 : 1;
      tokens.push(source.slice(i, j + 1));
      i = j + 1;
    } else {
      const m = /^[_A-Za-z][_0-9A-Za-z]*|^-?\d+(\.\d+)?([eE][+-]?\d+)?/.exec(source.slice(i));
      if (!m) throw validation(`Syntax Error: Unexpected character "${c}".`);
      tokens.push(m[0]);
      i += m[0].length;
    }
  }
  return tokens;
}

function validation(message: string): ResolverError {
  return new ResolverError({ message, extensions: { code: 'GRAPHQL_VALIDATION_FAILED', type: 'graphql error', userError: true } });
}

function parse(source: string, variables: Record<string, unknown>): { operation: 'query' | 'mutation'; fields: Field[] } {
  const t = tokenize(source);
  let p = 0;
  const peek = () => t[p];
  const next = () => {
    if (p >= t.length) throw validation('Syntax Error: Unexpected <EOF>.');
    return t[p++]!;
  };
  const expect = (token: string) => {
    const got = next();
    if (got !== token) throw validation(`Syntax Error: Expected "${token}", found "${got}".`);
  };
  const declared = new Map<string, boolean>();

  let operation: 'query' | 'mutation' = 'query';
  if (peek() === 'query' || peek() === 'mutation' || peek() === 'subscription') {
    const kind = next();
    if (kind === 'subscription') throw validation('Subscriptions are not supported');
    operation = kind as 'query' | 'mutation';
    if (peek() !== '(' && peek() !== '{') next();
    if (peek() === '(') {
      next();
      while (peek() !== ')') {
        expect('$');
        const name = next();
        expect(':');
        let type = '';
        while (peek() !== ')' && peek() !== '$' && peek() !== '=') type += next();
        if (peek() === '=') {
          next();
          value();
        }
        declared.set(name, type.endsWith('!'));
        if (type.endsWith('!') && (variables[name] === undefined || variables[name] === null)) {
          throw validation(`Variable "$${name}" of required type "${type}" was not provided.`);
        }
      }
      next();
    }
  }

  function value(): unknown {
    const token = next();
    if (token === '$') {
      const name = next();
      if (!declared.has(name)) throw validation(`Variable "$${name}" is not defined.`);
      return variables[name];
    }
    if (token.startsWith('"')) return JSON.parse(token);
    if (token === 'true' || token === 'false') return token === 'true';
    if (token === 'null') return null;
    if (/^-?\d/.test(token)) return Number(token);
    if (token === '[') {
      const list: unknown[] = [];
      while (peek() !== ']') list.push(value());
      next();
      return list;
    }
    if (token === '{') {
      const object: Record<string, unknown> = {};
      while (peek() !== '}') {
        const key = next();
        expect(':');
        object[key] = value();
      }
      next();
      return object;
    }
    return token; // an enum value
  }

  function selectionSet(): Field[] {
    expect('{');
    const fields: Field[] = [];
    while (peek() !== '}') {
      const alias = next();
      let name = alias;
      if (peek() === ':') {
        next();
        name = next();
      }
      if (peek() === '@') throw validation('Directives are not supported by this server');
      const args: Record<string, unknown> = {};
      if (peek() === '(') {
        next();
        while (peek() !== ')') {
          const key = next();
          expect(':');
          args[key] = value();
        }
        next();
      }
      fields.push({ alias, name, args, selections: peek() === '{' ? selectionSet() : null });
    }
    next();
    return fields;
  }

  const fields = selectionSet();
  if (p !== t.length) throw validation(`Syntax Error: Unexpected "${t[p]}".`);
  return { operation, fields };
}

const typeName = (name: string) => name.charAt(0).toUpperCase() + name.slice(1);

function project(value: unknown, field: Field, type: string): unknown {
  if (value === null || value === undefined) return null;
  if (Array.isArray(value)) return value.map((v) => project(v, field, type));
  const isObject = typeof value === 'object';
  if (!field.selections) {
    if (isObject) throw validation(`Field "${field.name}" of type "${type}" must have a selection of subfields.`);
    return value;
  }
  if (!isObject) throw validation(`Field "${field.name}" must not have a selection since type "${type}" has no subfields.`);
  const out: Record<string, unknown> = {};
  for (const sub of field.selections) {
    if (sub.name === '__typename') {
      out[sub.alias] = type;
      continue;
    }
    if (!(sub.name in (value as object))) throw validation(`Cannot query field "${sub.name}" on type "${type}".`);
    out[sub.alias] = project((value as Record<string, unknown>)[sub.name], sub, typeName(sub.name));
  }
  return out;
}

/** Runs one request against the resolvers: `{data}` or `{errors, data: null}`. */
export function execute(query: string, variables: Record<string, unknown>, resolvers: Resolvers): { data: unknown; errors?: GraphqlError[] } {
  try {
    const { operation, fields } = parse(query, variables);
    const root = operation === 'mutation' ? 'Mutation' : 'Query';
    const data: Record<string, unknown> = {};
    for (const field of fields) {
      const resolver = resolvers[field.name];
      if (!resolver || MUTATIONS.has(field.name) !== (operation === 'mutation')) throw validation(`Cannot query field "${field.name}" on type "${root}".`);
      try {
        const result = resolver(field.args);
        const type = field.name === 'viewer' ? 'User' : field.name === 'commentCreate' ? 'CommentPayload' : typeName(field.name);
        data[field.alias] = project(result, field, type);
      } catch (err) {
        if (err instanceof ResolverError) throw new ResolverError({ ...err.error, path: [field.alias] });
        throw err;
      }
    }
    return { data };
  } catch (err) {
    if (err instanceof ResolverError) return { errors: [err.error], data: null };
    throw err;
  }
}
