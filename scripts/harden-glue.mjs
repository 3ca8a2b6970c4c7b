// Rewrites www/pkg's wasm-bindgen glue so that it reaches the page's built-ins
// only through what www/core/captured.js captured when it loaded: every
// property read, write and method call on a value that is not the wasm's own
// exports, every `instanceof`, every `await`, every global it names. The
// build runs it after wasm-bindgen (scripts/build-web.sh); it refuses a glue
// with a shape it does not know (a global it has not captured, an optional
// chain, a spread it cannot place), so that a wasm-bindgen upgrade is looked
// at, never passed through half-hardened.
//
//   node scripts/harden-glue.mjs www/pkg/compaction_playground.js

import { readFileSync, writeFileSync } from 'node:fs';
import ts from 'typescript';
import { captures } from '../www/core/captured.js';

const f = ts.factory;
const MARK = '/* hardened by scripts/harden-glue.mjs */';
const IMPORTS = ['get', 'set', 'call', 'spread', 'is', 'own', 'describe', 'globals'];
/** Globals no script can change (non-writable, non-configurable properties of the global object). */
const FIXED = new Set(['undefined', 'NaN', 'Infinity']);

const local = (name) => `__cp_${name}`;
const helper = (name, args) => f.createCallExpression(f.createIdentifier(local(name)), undefined, args);

/** Receivers the glue may use directly: the wasm's exports (frozen, no prototype), this module's helpers, `import.meta`. */
function trusted(node) {
  if (ts.isIdentifier(node)) return node.text === 'wasm' || node.text.startsWith('__cp_');
  return ts.isMetaProperty(node);
}

/** Whether `node` is the target of `++`, `--` or a compound assignment (own counters of the glue's own objects). */
function updated(node) {
  const p = node.parent;
  if (!p) return false;
  if ((ts.isPrefixUnaryExpression(p) || ts.isPostfixUnaryExpression(p)) && (p.operator === ts.SyntaxKind.PlusPlusToken || p.operator === ts.SyntaxKind.MinusMinusToken)) return true;
  return (
    ts.isBinaryExpression(p) &&
    p.left === node &&
    p.operatorToken.kind !== ts.SyntaxKind.EqualsToken &&
    ts.SyntaxKind.FirstCompoundAssignment <= p.operatorToken.kind &&
    p.operatorToken.kind <= ts.SyntaxKind.LastCompoundAssignment
  );
}

const isArg = (node) => ts.isIdentifier(node) && /^arg\d+$/.test(node.text);

/** The names the file declares anywhere (it is one module: a name declared anywhere is not a global). */
function declared(source) {
  const names = new Set();
  const bind = (name) => {
    if (ts.isIdentifier(name)) names.add(name.text);
    else for (const e of name.elements) if (!ts.isOmittedExpression(e)) bind(e.name);
  };
  const walk = (node) => {
    if ((ts.isFunctionDeclaration(node) || ts.isClassDeclaration(node) || ts.isFunctionExpression(node)) && node.name) names.add(node.name.text);
    if (ts.isVariableDeclaration(node) || ts.isParameter(node) || ts.isBindingElement(node)) bind(node.name);
    node.forEachChild(walk);
  };
  walk(source);
  names.add('arguments');
  return names;
}

/** The globals `source` reads: identifiers in expression position that it does not declare. */
function globalsOf(source) {
  const mine = declared(source);
  const used = new Set();
  const walk = (node) => {
    if (ts.isIdentifier(node) && !mine.has(node.text) && !FIXED.has(node.text)) {
      const p = node.parent;
      const isName =
        (ts.isPropertyAccessExpression(p) && p.name === node) ||
        ((ts.isPropertyAssignment(p) || ts.isMethodDeclaration(p) || ts.isGetAccessor(p) || ts.isSetAccessor(p) || ts.isPropertyDeclaration(p)) && p.name === node) ||
        (ts.isBindingElement(p) && p.propertyName === node) ||
        ts.isExportSpecifier(p) ||
        ts.isImportSpecifier(p) ||
        ts.isMetaProperty(p);
      if (!isName) used.add(node.text);
    }
    node.forEachChild(walk);
  };
  walk(source);
  return used;
}

function refuse(node, source, why) {
  const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
  throw new Error(`harden-glue: line ${line + 1}: ${why}: ${node.getText(source).slice(0, 120)}`);
}

/** The rewritten glue's text. */
export function harden(text) {
  if (text.includes(MARK)) return text;
  const source = ts.createSourceFile('glue.js', text, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
  const wanted = [...globalsOf(source)].sort();
  const missing = wanted.filter((n) => !captures(n));
  if (missing.length) throw new Error(`harden-glue: the glue names globals www/core/captured.js does not capture: ${missing.join(', ')}`);

  const transformer = (context) => {
    const visit = (node) => {
      if (ts.isFunctionDeclaration(node) && node.name?.text === 'debugString') {
        const param = node.parameters[0].name;
        return f.updateFunctionDeclaration(
          node,
          node.modifiers,
          node.asteriskToken,
          node.name,
          node.typeParameters,
          node.parameters,
          node.type,
          f.createBlock([f.createReturnStatement(helper('describe', [param]))]),
        );
      }
      if (ts.isCallExpression(node)) {
        if (node.questionDotToken) refuse(node, source, 'an optional call');
        const args = node.arguments.map((a) => ts.visitNode(a, visit));
        const spreads = node.arguments.filter(ts.isSpreadElement);
        if (spreads.length) {
          const last = node.arguments[node.arguments.length - 1];
          if (spreads.length > 1 || last !== spreads[0] || !ts.isIdentifier(node.expression)) refuse(node, source, 'a spread other than a last one into a plain function');
          return helper('spread', [node.expression, f.createArrayLiteralExpression(args.slice(0, -1)), args[args.length - 1].expression]);
        }
        const callee = node.expression;
        if (ts.isPropertyAccessExpression(callee) && !trusted(callee.expression)) {
          if (callee.questionDotToken) refuse(node, source, 'an optional call');
          return helper('call', [ts.visitNode(callee.expression, visit), f.createStringLiteral(callee.name.text), f.createArrayLiteralExpression(args)]);
        }
        if (ts.isElementAccessExpression(callee)) refuse(node, source, 'a call through an element access');
        return f.updateCallExpression(node, ts.visitNode(callee, visit), node.typeArguments, args);
      }
      if (ts.isBinaryExpression(node)) {
        const op = node.operatorToken.kind;
        if (op === ts.SyntaxKind.InstanceOfKeyword) return helper('is', [ts.visitNode(node.left, visit), ts.visitNode(node.right, visit)]);
        if (op === ts.SyntaxKind.EqualsToken && ts.isPropertyAccessExpression(node.left) && !trusted(node.left.expression)) {
          return helper('set', [ts.visitNode(node.left.expression, visit), f.createStringLiteral(node.left.name.text), ts.visitNode(node.right, visit)]);
        }
        if (op === ts.SyntaxKind.EqualsToken && ts.isElementAccessExpression(node.left) && isArg(node.left.expression)) {
          return helper('set', [node.left.expression, ts.visitNode(node.left.argumentExpression, visit), ts.visitNode(node.right, visit)]);
        }
      }
      if (ts.isPropertyAccessExpression(node)) {
        if (node.questionDotToken) refuse(node, source, 'an optional chain');
        if (trusted(node.expression) || updated(node)) return ts.visitEachChild(node, visit, context);
        if (ts.isBinaryExpression(node.parent) && node.parent.left === node && node.parent.operatorToken.kind === ts.SyntaxKind.EqualsToken) refuse(node, source, 'an assignment it did not rewrite');
        return helper('get', [ts.visitNode(node.expression, visit), f.createStringLiteral(node.name.text)]);
      }
      if (ts.isElementAccessExpression(node) && isArg(node.expression) && !updated(node)) {
        return helper('get', [node.expression, ts.visitNode(node.argumentExpression, visit)]);
      }
      if (ts.isAwaitExpression(node)) return f.createAwaitExpression(helper('own', [ts.visitNode(node.expression, visit)]));
      return ts.visitEachChild(node, visit, context);
    };
    return (root) => ts.visitNode(root, visit);
  };

  const [out] = ts.transform(source, [transformer]).transformed;
  const body = ts.createPrinter({ newLine: ts.NewLineKind.LineFeed }).printFile(out);
  const imports = IMPORTS.map((n) => `${n} as ${local(n)}`).join(', ');
  const shadow = wanted.length ? `const { ${wanted.join(', ')} } = __cp_globals;\n` : '';
  return `${MARK}\nimport { ${imports} } from '../core/captured.js';\n${shadow}${body}`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const file = process.argv[2];
  if (!file) throw new Error('usage: node scripts/harden-glue.mjs GLUE.js');
  writeFileSync(file, harden(readFileSync(file, 'utf8')));
}
