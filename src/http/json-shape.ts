/**
 * A JSON body's shape checked before it is parsed: nesting deeper than MAX_JSON_DEPTH or more than
 * MAX_JSON_KEYS object keys is refused (400) in one pass over the text, so a 1 MB body of 10,000
 * nested arrays never reaches the parser's or the validator's recursion (it gave a 500).
 */
export const MAX_JSON_DEPTH = 32;
export const MAX_JSON_KEYS = 10_000;

/** Why a JSON text is refused, or undefined when its shape is acceptable (its syntax is the parser's business). */
export function jsonShapeProblem(text: string): string | undefined {
  let depth = 0;
  let keys = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \\ */) i++;
      else if (c === 34 /* " */) inString = false;
      continue;
    }
    if (c === 34) inString = true;
    else if (c === 123 /* { */ || c === 91 /* [ */) {
      if (++depth > MAX_JSON_DEPTH) return `The JSON body nests deeper than ${MAX_JSON_DEPTH} levels; a query needs two.`;
    } else if (c === 125 /* } */ || c === 93 /* ] */) depth--;
    else if (c === 58 /* : */ && ++keys > MAX_JSON_KEYS) return `The JSON body has more than ${MAX_JSON_KEYS} keys; a query has six.`;
  }
  return undefined;
}
