/**
 * Variables whose value may also come from a file (`{NAME}_FILE`: a mounted Docker or Kubernetes
 * secret), declared and read as a pair.
 */
import { readFileSync } from 'node:fs';
import { ConfigError, type Reader, type Schema, type Values, type Variable } from './schema';

/**
 * `variable` and its `{name}_FILE` twin: the path of a file that holds the value instead (a
 * mounted Docker or Kubernetes secret). The twin's parse reads the file and parses what it holds,
 * trimmed, as the variable's own value; a file that cannot be read, or is empty, is a ConfigError
 * naming the twin and the path, never anything the file holds. Read the pair with `valueOrFile`.
 */
export function withFile<const N extends string, T>(name: N, variable: Variable<T>): Record<N, Variable<T>> & Record<`${N}_FILE`, Variable<T>> {
  const twin: Variable<T> = {
    type: 'path',
    description: `\`${name}\` read from this file (e.g. a mounted secret); not with \`${name}\``,
    shownDefault: '',
    accepts: 'a file path',
    parse(path, fileName) {
      if (path === undefined || path === '') return variable.parse(undefined, fileName);
      let contents: string;
      try {
        contents = readFileSync(path, 'utf8').trim();
      } catch (err) {
        throw new ConfigError(`${fileName}: cannot read ${path} (${(err as NodeJS.ErrnoException).code ?? 'unreadable'})`);
      }
      if (contents === '') throw new ConfigError(`${fileName}: ${path} is empty`);
      return variable.parse(contents, fileName);
    },
  };
  return { [name]: variable, [`${name}_FILE`]: twin } as Record<N, Variable<T>> & Record<`${N}_FILE`, Variable<T>>;
}

/** The value of a `withFile` pair: set in the variable or in its `_FILE` twin, not both. */
export function valueOrFile<S extends Schema, N extends keyof S & string>(read: Reader<S>, name: N): Values<S>[N] {
  const file = `${name}_FILE` as keyof S & string;
  if (read.isSet(name) && read.isSet(file)) throw new ConfigError(`set ${name} or ${file}, not both`);
  return read.isSet(file) ? (read.get(file) as Values<S>[N]) : read.get(name);
}
