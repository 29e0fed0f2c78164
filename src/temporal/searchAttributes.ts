/**
 * Hangar's search attributes must be registered on the namespace before a workflow carries
 * them: a start with an unregistered one fails (INVALID_ARGUMENT). The API and the worker check
 * at start and refuse to run without them, naming the command that registers them, unless the
 * operator turned them off (`HANGAR_TEMPORAL_SEARCH_ATTRIBUTES=off`).
 */
import { temporal } from '@temporalio/proto';
import { SEARCH_ATTRIBUTES } from '../../workflows/shared';

const KEYWORD = temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD;

export const SEARCH_ATTRIBUTE_NAMES = Object.values(SEARCH_ATTRIBUTES).map((key) => key.name);

/** `temporal server start-dev` flags that register them on the dev server. */
export const devServerSearchAttributeArgs = (): string[] => SEARCH_ATTRIBUTE_NAMES.flatMap((name) => ['--search-attribute', `${name}=Keyword`]);

/** The command an operator runs once per namespace (the CLI pairs each --name with a --type of its own). */
export function registerCommand(namespace: string, names: string[] = SEARCH_ATTRIBUTE_NAMES): string {
  return `temporal operator search-attribute create --namespace ${namespace} ${names.map((name) => `--name ${name} --type Keyword`).join(' ')}`;
}

export class SearchAttributesMissingError extends Error {}

interface OperatorConnection {
  operatorService: Pick<temporal.api.operatorservice.v1.OperatorService, 'listSearchAttributes'>;
}

/** Resolves when every attribute is registered as a Keyword; otherwise throws what to do. */
export async function verifySearchAttributes(connection: OperatorConnection, namespace: string): Promise<void> {
  const optOut = 'or set HANGAR_TEMPORAL_SEARCH_ATTRIBUTES=off to run without them';
  let registered: Record<string, temporal.api.enums.v1.IndexedValueType>;
  try {
    registered = (await connection.operatorService.listSearchAttributes({ namespace })).customAttributes ?? {};
  } catch (err) {
    const code = (err as { code?: number }).code;
    // Unreachable: the caller's own connection errors say so; anything else is about access.
    if (code === 14 || code === 4) throw err;
    throw new SearchAttributesMissingError(
      `Hangar could not list the search attributes of Temporal namespace "${namespace}" (${(err as Error).message}). ` +
        `Make sure they are registered (${registerCommand(namespace)}), ${optOut}.`,
    );
  }
  const wrongType = SEARCH_ATTRIBUTE_NAMES.filter((name) => name in registered && registered[name] !== KEYWORD);
  const missing = SEARCH_ATTRIBUTE_NAMES.filter((name) => !(name in registered));
  if (wrongType.length) {
    throw new SearchAttributesMissingError(
      `Temporal namespace "${namespace}" has ${wrongType.join(', ')} with a type other than Keyword; ` +
        `remove them (temporal operator search-attribute remove --namespace ${namespace} --name …) and register them again (${registerCommand(namespace, wrongType)}), ${optOut}.`,
    );
  }
  if (missing.length) {
    throw new SearchAttributesMissingError(
      `Temporal namespace "${namespace}" lacks Hangar's search attributes ${missing.join(', ')}. Register them once with:\n  ${registerCommand(namespace, missing)}\n${optOut}.`,
    );
  }
}
