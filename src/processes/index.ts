/**
 * Assembly shared by the composition roots (api, worker, dev) and the integration tests:
 * each builds its dependencies once, then hands them to these functions. The production entry
 * points import their own module (./apiAssembly, ./workerAssembly) so that each loads only what
 * it runs.
 */
export { migrate, openDatabase, type Database } from '../db/database';
export { buildApi, type ApiProcess } from './apiAssembly';
export { startWorker, type WorkerProcess } from './workerAssembly';
