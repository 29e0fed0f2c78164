/** Automations: the worker's sweep of their inbox. */
import { integer, section } from './schema';

export const automations = section(
  'Automations',
  {
    HANGAR_AUTOMATION_SWEEP_SECONDS: integer({
      default: 30,
      min: 1,
      max: 3600,
      description: 'how often a worker starts the workflows of inbox rows left without one (and how old they must be)',
    }),
  },
  {},
  (read) => ({
    automationSweepMs: read.get('HANGAR_AUTOMATION_SWEEP_SECONDS') * 1000,
  }),
);
