/**
 * A stand-in for the workflows a workspace signals: an automation run (`runTurnFinished`, to
 * `reportTo` and to grouped runs) or a warm pool (`warmPoolChanged`). It records every signal
 * it gets and answers them to a query. Bundled on its own, on its own task queue: the
 * workspace workflow runs from the project's unchanged bundle.
 */
import { condition, defineQuery, setDefaultSignalHandler, setHandler } from '@temporalio/workflow';

export interface HeardSignal {
  signal: string;
  args: unknown[];
}

export const heardQuery = defineQuery<HeardSignal[]>('heard');

export async function signalListener(): Promise<void> {
  const heard: HeardSignal[] = [];
  setDefaultSignalHandler((signal, ...args) => void heard.push({ signal, args }));
  setHandler(heardQuery, () => heard);
  await condition(() => false);
}
