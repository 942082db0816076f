// Worker threads do not inherit the main thread's tsx loader: register it, then load the TypeScript worker.
import { register } from 'tsx/esm/api';
import { workerData } from 'node:worker_threads';

register();
await import(workerData.entry);
