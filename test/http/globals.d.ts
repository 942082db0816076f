// Tests read JSON bodies whose shape each assertion checks; typing them as any keeps the tests readable.
declare global {
  interface Response {
    json(): Promise<any>;
  }
}
export {};
