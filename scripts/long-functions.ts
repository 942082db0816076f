/**
 * Lists the functions of a folder at least N lines long (declaration to closing brace), longest
 * first, nested functions named after their outer one: how issue 24 found the functions to read
 * as named steps. Run: node bin/run-ts.js scripts/long-functions.ts [dir=src/synthesis] [N=80]
 */
import ts from 'typescript';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
const [dir = 'src/synthesis', min = '80'] = process.argv.slice(2);
const files = readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile() && e.name.endsWith('.ts')).map((e) => join(e.parentPath, e.name));
const rows: [number, string][] = [];
for (const file of files) {
  const src = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const visit = (node: ts.Node, outer: string) => {
    let name = outer;
    if (ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node) || ts.isArrowFunction(node) || ts.isFunctionExpression(node)) {
      const n = (node as ts.FunctionDeclaration).name?.getText() ?? (ts.isVariableDeclaration(node.parent) ? node.parent.name.getText() : ts.isPropertyAssignment(node.parent) ? node.parent.name.getText() : '<anon>');
      name = outer ? `${outer} › ${n}` : n;
      const lines = src.getLineAndCharacterOfPosition(node.getEnd()).line - src.getLineAndCharacterOfPosition(node.getStart()).line + 1;
      if (lines >= Number(min)) rows.push([lines, `${file}:${src.getLineAndCharacterOfPosition(node.getStart()).line + 1} ${name}`]);
    }
    ts.forEachChild(node, (c) => visit(c, name));
  };
  visit(src, '');
}
for (const [n, w] of rows.sort((a, b) => b[0] - a[0])) console.log(String(n).padStart(4), w);
