import { parentPort } from 'node:worker_threads';
import { INPUT_TABLES } from '../synthesis/census/tables.ts';
import { chooseTableStrengths, type TableStrengthArea } from '../synthesis/synthesizer/borrow-strength.ts';

/** Worker thread: chooses one input table's borrowing strengths over a level's areas (pipeline/borrowing.ts) per message. */
export interface StrengthRequest {
  readonly tableId: string;
  readonly areas: readonly TableStrengthArea[];
  readonly significance?: number;
}

if (!parentPort) throw new Error('strength-worker.ts runs as a worker thread');
const port = parentPort;
port.on('message', (request: StrengthRequest) => {
  try {
    const spec = INPUT_TABLES.find((t) => t.id === request.tableId);
    if (!spec) throw new Error(`no input table ${request.tableId}`);
    port.postMessage({ ok: true, value: chooseTableStrengths(spec, request.areas, request.significance) });
  } catch (error) {
    port.postMessage({ ok: false, message: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  }
});
