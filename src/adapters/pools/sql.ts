/** SQL quoting for names and literals that come from the catalogue (variable codes, labels, paths). */
export const quoteIdent = (name: string): string => `"${name.replaceAll('"', '""')}"`;
export const quoteLiteral = (value: string): string => `'${value.replaceAll("'", "''")}'`;
