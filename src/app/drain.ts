/**
 * Counts executes in flight so a graceful shutdown can refuse new ones and wait for the
 * running ones (an execute interrupted after its charge would otherwise wait for crash recovery).
 */
export class Drain {
  #inFlight = 0;
  #draining = false;
  #idle: (() => void)[] = [];

  get draining(): boolean {
    return this.#draining;
  }

  get inFlight(): number {
    return this.#inFlight;
  }

  /** false once draining has begun: the caller must refuse the work. */
  enter(): boolean {
    if (this.#draining) return false;
    this.#inFlight++;
    return true;
  }

  leave(): void {
    this.#inFlight--;
    if (this.#inFlight === 0) for (const resolve of this.#idle.splice(0)) resolve();
  }

  /** Stops admitting work and resolves when the last piece in flight has left. */
  drain(): Promise<void> {
    this.#draining = true;
    if (this.#inFlight === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idle.push(resolve));
  }
}
