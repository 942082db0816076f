/**
 * Handing memory back once the heavy work is done. Opening a release of 20,827 areas and an
 * export both grow V8's heap (the young generation to its 64 MB semi-spaces, old-space pages
 * for the garbage that survived a scavenge) and leave it committed: V8 shrinks it only when told
 * memory is short. Measured on the national four-level release, a server at idle after two
 * small executes held 330 MB private of which 45 MB were live objects; one memory-reducing
 * collection took it back to ~100 MB below that (docs/performance.md, "Serving the four-level
 * release"). So when the last export in flight ends, a collection that shrinks the heap runs a
 * moment later if nothing else has started by then: a pause of tens of ms after work that took
 * seconds, never in the middle of it. Not after a release opens: there it ran into the rest of
 * start-up and delayed /readyz by up to 2 s at load 5–6, and the first export's collection
 * takes back what opening left anyway.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

type Collect = () => void;

/** Quiet time after the last export before collecting: an export right behind another finds nothing to wait for. */
export const COMPACT_AFTER_MS = 200;

/**
 * V8's collection that also shrinks the heap (the "last resort" flavour: what a low-memory
 * notification runs). Node exposes it only through the gc extension, so the extension is made
 * for one context and the flag turned off again: `gc` never appears on the global object.
 */
function memoryReducingCollect(): Collect {
  setFlagsFromString('--expose-gc');
  try {
    const gc = runInNewContext('gc') as (options: object) => void;
    return () => gc({ type: 'major', execution: 'sync', flavor: 'last-resort' });
  } finally {
    setFlagsFromString('--no-expose-gc');
  }
}

/** Counts the work in flight and collects once it has all ended and stayed ended a moment. */
export class Compactor {
  #running = 0;
  #timer: NodeJS.Timeout | undefined;
  #collect: Collect | undefined;

  constructor(
    private readonly make: () => Collect = memoryReducingCollect,
    private readonly delayMs = COMPACT_AFTER_MS,
  ) {}

  /** Marks work begun; the function returned marks it ended (once). */
  begin(): () => void {
    this.#running++;
    this.#cancel();
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.#running--;
      this.soon();
    };
  }

  /** Collects after the delay unless work begins before it. */
  soon(): void {
    if (this.#running > 0) return;
    this.#cancel();
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      if (this.#running === 0) (this.#collect ??= this.make())();
    }, this.delayMs);
    // A pending collection never keeps the process alive.
    this.#timer.unref();
  }

  #cancel(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}

/** The process's one compactor (every release served shares the heap). */
export const compactor = new Compactor();
