/** The Temporal cluster Hangar's workflows run on. */
import { choice, section, text } from './schema';

export const temporal = section(
  'Temporal',
  {
    TEMPORAL_ADDRESS: text({ type: 'host:port', shownDefault: 'dev server', description: "the Temporal frontend; `npm start` starts a dev server without it, and the api and worker refuse to start without it" }),
    TEMPORAL_NAMESPACE: text({ default: 'default', description: 'the Temporal namespace' }),
    HANGAR_TASK_QUEUE: text({ default: 'hangar', description: "the task queue of Hangar's workflows (a worker host's own queue is `{queue}@{host id}`)" }),
    HANGAR_TEMPORAL_SEARCH_ATTRIBUTES: choice({
      values: ['on', 'off'],
      default: 'on',
      description:
        '`on`: every workflow carries Hangar\'s search attributes and memo, and the api and worker refuse to start when the namespace lacks them (see "Temporal search attributes"); `off`: workflows carry neither (a cluster where they cannot be registered)',
    }),
  },
  {},
  (read) => ({
    temporalAddress: read.get('TEMPORAL_ADDRESS'),
    temporalNamespace: read.get('TEMPORAL_NAMESPACE'),
    /**
     * `HANGAR_TEMPORAL_SEARCH_ATTRIBUTES`: `on` (default) sets Hangar's search attributes and memo
     * on every workflow, and the API and worker refuse to start when the namespace lacks them;
     * `off` for a cluster where they cannot be registered.
     */
    temporalSearchAttributes: read.get('HANGAR_TEMPORAL_SEARCH_ATTRIBUTES') === 'on',
    taskQueue: read.get('HANGAR_TASK_QUEUE'),
  }),
);
