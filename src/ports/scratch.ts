/**
 * Where an execute writes its file before it is stored: a directory only this instance writes
 * (a crash leaves its files behind; start-up and the lease keeper remove a dead instance's).
 */
export interface ScratchSpace {
  /** The path of a new scratch file called `name` (the directory exists when this resolves). */
  file(name: string): Promise<string>;
  /** Removes a scratch file; nothing happens when it is already gone. */
  remove(path: string): Promise<void>;
}
