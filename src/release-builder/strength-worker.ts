/** Worker thread: chooses one input table's borrowing strengths over a level's areas (pipeline/borrowing.ts) per message. */
import { parentPort } from 'node:worker_threads';
import { chooseInputTableStrengths, type StrengthRequest } from '../synthesis/pipeline/borrowing.ts';

if (!parentPort) throw new Error('strength-worker.ts runs as a worker thread');
const port = parentPort;
port.on('message', (request: StrengthRequest) => {
  try {
    port.postMessage({ ok: true, value: chooseInputTableStrengths(request.tableId, request.areas, request.significance) });
  } catch (error) {
    port.postMessage({ ok: false, message: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  }
});
