/**
 * Issue 24 item 3: a function reads as a list of named steps, so none
 * runs past MAX_LINES of its own. A function is measured without the functions nested in it (a
 * callback, a method of a returned object, a route handler), each of which is measured on its own:
 * a factory returning small methods, or a routing table of small handlers, passes; a long callback
 * does not hide inside a short register function.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');
const MAX_LINES = 80;
/** Left out: the demo-input generator (its own rules). The census science (src/synthesis) is held to the limit too. */
const SCIENCE = ['src/demo/'];
/** Functions allowed past the limit, with why. Keep it short. */
const ALLOWED: ReadonlyMap<string, string> = new Map();

interface Measured {
  readonly where: string;
  readonly name: string;
  /** Lines from the function's first to its last, nested functions included. */
  readonly total: number;
  /** The same without the lines of the functions nested in it. */
  readonly own: number;
}

const hasBody = (node: ts.Node): node is ts.FunctionLikeDeclaration => ts.isFunctionLike(node) && (node as ts.FunctionLikeDeclaration).body !== undefined;

function nameOf(node: ts.FunctionLikeDeclaration): string {
  if (node.name) return node.name.getText();
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)) return parent.name.getText();
  if (ts.isCallExpression(parent)) return `callback of ${parent.expression.getText().replace(/\s+/g, ' ').slice(-40)}`;
  return '(anonymous)';
}

/** Every function, method and arrow function of one source text, with its total and own line counts. */
function measureFunctions(file: string, text: string): Measured[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const lineOf = (pos: number) => source.getLineAndCharacterOfPosition(pos).line;
  const span = (node: ts.Node) => lineOf(node.getEnd()) - lineOf(node.getStart(source)) + 1;
  const nestedLines = (fn: ts.Node): number => {
    let lines = 0;
    const visit = (node: ts.Node): void => {
      if (hasBody(node)) lines += span(node);
      else ts.forEachChild(node, visit);
    };
    ts.forEachChild(fn, visit);
    return lines;
  };
  const out: Measured[] = [];
  const visit = (node: ts.Node): void => {
    if (hasBody(node)) {
      out.push({ where: `${file}:${lineOf(node.getStart(source)) + 1}`, name: nameOf(node), total: span(node), own: span(node) - nestedLines(node) });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

function serviceSources(): string[] {
  return readdirSync(join(ROOT, 'src'), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts') && !e.name.endsWith('.d.ts'))
    .map((e) => relative(ROOT, join(e.parentPath, e.name)).split('\\').join('/'))
    .filter((file) => !SCIENCE.some((dir) => file.startsWith(dir)));
}

describe('function length outside the census science', () => {
  it(`measures a function by its own lines, each nested function on its own`, () => {
    const body = (n: number) => Array.from({ length: n }, (_, i) => `  const v${i} = ${i};`).join('\n');
    const text = `function short() {\n  return [1].map((x) => {\n${body(90)}\n    return x;\n  });\n}\nfunction long() {\n${body(85)}\n}\n`;
    const measured = measureFunctions('sample.ts', text);
    const byName = new Map(measured.map((m) => [m.name, m]));
    expect(byName.get('short')!.own).toBe(2);
    expect(byName.get('callback of [1].map')!.own).toBe(93);
    expect(byName.get('long')!.own).toBe(87);
    expect(measured.filter((m) => m.own > MAX_LINES).map((m) => m.name)).toEqual(['callback of [1].map', 'long']);
  });

  it(`no function in src (but the demo generator) has more than ${MAX_LINES} lines of its own`, () => {
    const files = serviceSources();
    expect(files.length).toBeGreaterThan(100);
    const tooLong = files
      .flatMap((file) => measureFunctions(file, readFileSync(join(ROOT, file), 'utf8')))
      .filter((m) => m.own > MAX_LINES && !ALLOWED.has(`${m.where.replace(/:\d+$/, '')}#${m.name}`))
      .map((m) => `${m.where} ${m.name}: ${m.own} lines of its own (${m.total} with its nested functions); split it into named steps`);
    expect(tooLong).toEqual([]);
  });
});
