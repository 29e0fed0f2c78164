/**
 * How every process reaches the cluster: the options both `Connection.connect`
 * (@temporalio/client, the API's and the worker's workflow control) and `NativeConnection.connect`
 * (@temporalio/worker, the worker's polling) take, from the configuration's TLS and API key.
 */
import type { TLSConfig } from '@temporalio/client';
import type { Config } from '../config';

export interface TemporalConnectionOptions {
  address: string;
  /** Absent: plaintext. */
  tls?: TLSConfig;
  /** Sent as `Authorization: Bearer …` on every call (Temporal Cloud). */
  apiKey?: string;
}

/** `address` is `TEMPORAL_ADDRESS`, or the dev server `npm start` ran without it (which has no TLS settings to apply). */
export function temporalConnectionOptions(config: Pick<Config, 'temporalTls' | 'temporalApiKey'>, address: string): TemporalConnectionOptions {
  return {
    address,
    ...(config.temporalTls && { tls: config.temporalTls }),
    ...(config.temporalApiKey && { apiKey: config.temporalApiKey }),
  };
}
