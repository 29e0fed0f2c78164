/** The shape of a user command, so the dispatcher can parse its options and print its usage. */
import type { CommandContext } from './context';
import { UsageError } from './format';

export type OptionSpec = { type: 'string' | 'boolean'; short?: string; multiple?: boolean };
export type Values = Record<string, string | boolean | Array<string | boolean> | undefined>;

export interface Command {
  /** `list`, `env`, …; groups take a subcommand as their first argument. */
  name: string;
  /** Usage lines, without the leading `hangar `. */
  usage: string[];
  summary: string;
  options?: Record<string, OptionSpec>;
  /** The exit code (0 when nothing is returned). */
  run(ctx: CommandContext, values: Values, positionals: string[]): Promise<number | void>;
}

export function stringOption(values: Values, name: string): string | undefined {
  const value = values[name];
  return typeof value === 'string' ? value : undefined;
}

export function flag(values: Values, name: string): boolean {
  return values[name] === true;
}

/** Picks the subcommand of a group (`env list`), refusing one the group does not have. */
export function subcommand<T extends string>(positionals: string[], allowed: readonly T[], fallback?: T): T {
  const given = positionals[0] ?? fallback;
  if (given === undefined) throw new UsageError(`missing subcommand (${allowed.join(', ')})`);
  if (!(allowed as readonly string[]).includes(given)) throw new UsageError(`unknown subcommand "${given}" (${allowed.join(', ')})`);
  return given as T;
}
