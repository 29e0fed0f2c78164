/** The message of the ConfigError `loadConfig` throws for `env`; fails when it accepts it. */
import { expect } from 'chai';
import { ConfigError, loadConfig } from '../../../src/config';

export function configRefusal(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (err) {
    expect(err).to.be.instanceOf(ConfigError);
    return (err as Error).message;
  }
  throw new Error('accepted');
}
