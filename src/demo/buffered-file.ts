import { closeSync, openSync, writeSync } from 'node:fs';

/** A write-only file with a 1 MiB text buffer: many small rows, few system calls. */
export class BufferedFile {
  private readonly fd: number;
  private chunks: string[] = [];
  private size = 0;

  constructor(path: string) {
    this.fd = openSync(path, 'w');
  }

  write(text: string): void {
    this.chunks.push(text);
    this.size += text.length;
    if (this.size >= 1 << 20) this.flush();
  }

  private flush(): void {
    if (this.size === 0) return;
    writeSync(this.fd, this.chunks.join(''));
    this.chunks = [];
    this.size = 0;
  }

  close(): void {
    this.flush();
    closeSync(this.fd);
  }
}
