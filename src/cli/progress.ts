/**
 * One progress line on a terminal (rewritten in place), or a line every 10% when the stream
 * is not a terminal (CI logs), so long commands always show they are moving.
 */
export interface Progress {
  phase(label: string): void;
  update(done: number, total: number): void;
  done(): void;
}

export function createProgress(stream: NodeJS.WriteStream): Progress {
  const tty = stream.isTTY === true;
  let label = '';
  let started = performance.now();
  let lastDecile = -1;
  let lastDraw = 0;
  let last = { done: 0, total: 0 };
  const line = () => {
    const { done, total } = last;
    const percent = total > 0 ? Math.floor((done / total) * 100) : 0;
    const seconds = (performance.now() - started) / 1000;
    return `${label}: ${done}/${total} (${percent}%) ${seconds.toFixed(1)} s`;
  };
  return {
    phase(next) {
      label = next;
      started = performance.now();
      lastDecile = -1;
      last = { done: 0, total: 0 };
    },
    update(done, total) {
      last = { done, total };
      if (tty) {
        const now = performance.now();
        if (now - lastDraw > 100 || done === total) {
          lastDraw = now;
          stream.write(`\r${line()}\u001b[K`);
        }
        return;
      }
      const decile = total > 0 ? Math.floor((done / total) * 10) : 0;
      if (decile > lastDecile) {
        lastDecile = decile;
        stream.write(`${line()}\n`);
      }
    },
    done() {
      if (!label) return;
      stream.write(tty ? `\r${line()}\u001b[K\n` : `${line()} done\n`);
      label = '';
    },
  };
}
