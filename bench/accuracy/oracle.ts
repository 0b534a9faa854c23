/**
 * Call-graph oracle: the TypeScript checker's resolved call targets for a repository.
 *
 *   node --import tsx bench/accuracy/oracle.ts <repo-dir> [--js] > oracle.tsv
 *
 * `--js`: JavaScript files (.js/.jsx/.mjs/.cjs) too, checked as JavaScript (CommonJS included).
 * Every `.ts`/`.tsx`/`.mts`/`.cts` file outside node_modules/dist is compiled in one program (no
 * emit, no external types). For each call, `new` and `super(...)` the checker's resolved signature
 * gives the declaration; pairs whose target is a named definition inside the repo are printed as
 * `<caller>\t<callee>`, ids spelled like the extractor's: `<path>#<qualified.name>`, the caller
 * being the innermost named function / method / class (top-level code: the file, `<path>`).
 * Named definitions: function and class declarations, class methods/accessors/constructors,
 * interface method signatures, namespaces, and function/arrow expressions bound to a variable or a
 * class property. Object-literal methods and anonymous functions are not definitions (their calls
 * belong to the enclosing definition), exactly as in the extractor.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

const SKIP_DIRS = new Set(['node_modules', 'dist', 'build', '.git', 'coverage', 'out', '.next', 'vendor']);

/** `.ts/.tsx/.mts/.cts`, and with `js` also `.js/.jsx/.mjs/.cjs` (no `.d.ts` filter: declarations count as callees). */
export function listTsFiles(root: string, js = false): string[] {
  const pattern = js ? /\.(c|m)?(t|j)sx?$/ : /\.(c|m)?tsx?$/;
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir).sort()) {
      if (name.startsWith('.')) continue;
      const p = join(dir, name);
      const st = statSync(p);
      if (st.isDirectory()) {
        if (!SKIP_DIRS.has(name)) walk(p);
      } else if (pattern.test(name) && st.size < 1_000_000) out.push(p);
    }
  };
  walk(root);
  return out;
}

function nameText(n: ts.Node | undefined): string | undefined {
  if (!n) return undefined;
  if (ts.isIdentifier(n) || ts.isPrivateIdentifier(n)) return n.text;
  if (ts.isStringLiteral(n)) return n.getText(); // `declare module 'x'`: quoted, as tree-sitter sees it
  return n.getText();
}

/** The definition name of a node if it is a "named definition", else undefined. */
function defName(n: ts.Node): string | undefined {
  if (ts.isFunctionDeclaration(n)) return n.name?.text;
  if (ts.isClassDeclaration(n) || ts.isClassExpression(n)) return n.name?.text;
  if (ts.isInterfaceDeclaration(n) || ts.isEnumDeclaration(n) || ts.isTypeAliasDeclaration(n)) return n.name.text;
  if (ts.isModuleDeclaration(n)) return nameText(n.name);
  if (ts.isConstructorDeclaration(n)) return 'constructor';
  if ((ts.isMethodDeclaration(n) || ts.isGetAccessorDeclaration(n) || ts.isSetAccessorDeclaration(n)) && ts.isClassLike(n.parent)) return nameText(n.name);
  if (ts.isMethodSignature(n) && ts.isInterfaceDeclaration(n.parent)) return nameText(n.name);
  // Objects of functions bound to a variable: `const api = { get() {}, post: () => {} }`.
  if (ts.isMethodDeclaration(n) && ts.isObjectLiteralExpression(n.parent) && namedObject(n.parent)) return nameText(n.name);
  if (ts.isVariableDeclaration(n) && ts.isIdentifier(n.name) && n.initializer && ts.isObjectLiteralExpression(n.initializer) && namedObject(n.initializer)) return n.name.text;
  // `module.exports = { get() {}, post: function () {} }`: members named as `exports.get = ...` is.
  if (ts.isMethodDeclaration(n) && ts.isObjectLiteralExpression(n.parent) && isModuleExports(n.parent.parent, n.parent)) return nameText(n.name);
  if (ts.isArrowFunction(n) || ts.isFunctionExpression(n)) {
    const p = n.parent;
    if (ts.isBinaryExpression(p) && p.right === n && p.operatorToken.kind === ts.SyntaxKind.EqualsToken) return assignedName(p.left);
    if (ts.isPropertyAssignment(p) && p.initializer === n && ts.isObjectLiteralExpression(p.parent) && isModuleExports(p.parent.parent, p.parent)) return nameText(p.name);
    if (ts.isVariableDeclaration(p) && p.initializer === n && ts.isIdentifier(p.name)) return p.name.text;
    if (ts.isPropertyDeclaration(p) && p.initializer === n && ts.isClassLike(p.parent)) return nameText(p.name);
    if (ts.isPropertyAssignment(p) && p.initializer === n && ts.isObjectLiteralExpression(p.parent) && namedObject(p.parent)) return nameText(p.name);
  }
  return undefined;
}

/** `module.exports = <value>` (the assignment holding `value`). */
function isModuleExports(assign: ts.Node, value: ts.Node): boolean {
  return ts.isBinaryExpression(assign) && assign.right === value && assign.operatorToken.kind === ts.SyntaxKind.EqualsToken
    && assign.left.getText().replace(/\s+/g, '') === 'module.exports';
}

/**
 * The name a function assigned to `left` is defined under: `exports.f` and `module.exports.f` give
 * `f` (module members), `X.prototype.y` gives `X.y` (a method of X), `a.b` gives `a.b`; any other
 * target (computed, deeper paths) none.
 */
function assignedName(left: ts.Expression): string | undefined {
  if (!ts.isPropertyAccessExpression(left)) return undefined;
  const name = left.name.text;
  const o = left.expression;
  if (ts.isIdentifier(o)) return o.text === 'exports' ? name : o.text === 'module' ? undefined : `${o.text}.${name}`;
  if (ts.isPropertyAccessExpression(o) && ts.isIdentifier(o.expression)) {
    if (o.expression.text === 'module' && o.name.text === 'exports') return name;
    if (o.name.text === 'prototype') return `${o.expression.text}.${name}`;
  }
  return undefined;
}

/** An object literal bound to a variable that holds at least one method or function property. */
function namedObject(o: ts.ObjectLiteralExpression): boolean {
  if (!ts.isVariableDeclaration(o.parent) || !ts.isIdentifier(o.parent.name) || o.parent.initializer !== o) return false;
  return o.properties.some((p) => ts.isMethodDeclaration(p)
    || (ts.isPropertyAssignment(p) && (ts.isArrowFunction(p.initializer) || ts.isFunctionExpression(p.initializer))));
}

/** The node whose parent chain defines nesting (for function expressions: the declaration holding them). */
function qualifiedName(n: ts.Node): string | undefined {
  const parts: string[] = [];
  for (let cur: ts.Node | undefined = n; cur; cur = cur.parent) {
    const name = defName(cur);
    if (name !== undefined) parts.push(name);
    else if (cur === n) return undefined;
    if ((ts.isArrowFunction(cur) || ts.isFunctionExpression(cur)) && name !== undefined) {
      cur = cur.parent; // skip the VariableDeclaration / PropertyDeclaration / PropertyAssignment
    }
  }
  return parts.reverse().join('.');
}

/** Innermost enclosing named definition of a node (not the node itself). */
function enclosingDef(n: ts.Node): ts.Node | undefined {
  for (let cur = n.parent; cur; cur = cur.parent) if (defName(cur) !== undefined) return cur;
  return undefined;
}

function targetDecl(d: ts.Node | undefined): ts.Node | undefined {
  if (!d) return undefined;
  // JS expando members (`app.use = function`, `exports.f = ...`): declared by the assignment or its target.
  if (ts.isPropertyAccessExpression(d) && ts.isBinaryExpression(d.parent) && d.parent.left === d) d = d.parent;
  if (ts.isBinaryExpression(d) && d.operatorToken.kind === ts.SyntaxKind.EqualsToken && (ts.isArrowFunction(d.right) || ts.isFunctionExpression(d.right))) return targetDecl(d.right);
  // `const f = () => {}` / `p = () => {}`: the function value is the definition.
  if ((ts.isVariableDeclaration(d) || ts.isPropertyDeclaration(d) || ts.isPropertyAssignment(d)) && d.initializer
    && (ts.isArrowFunction(d.initializer) || ts.isFunctionExpression(d.initializer))) return targetDecl(d.initializer);
  return defName(d) !== undefined ? d : undefined;
}

/**
 * The called definition: the symbol the callee names (following imports and re-exports), whose
 * declaration holds the function value; else the resolved signature's declaration. Symbol first,
 * because a typed binding (`const f: Handler = () => ...`) resolves its signature to the type.
 */
function calledDecl(checker: ts.TypeChecker, node: ts.CallExpression | ts.NewExpression | ts.TaggedTemplateExpression): ts.Node | undefined {
  const callee = ts.isTaggedTemplateExpression(node) ? node.tag : node.expression;
  if (!ts.isNewExpression(node) && callee.kind !== ts.SyntaxKind.SuperKeyword) {
    const nameNode = ts.isPropertyAccessExpression(callee) ? callee.name : ts.isIdentifier(callee) ? callee : undefined;
    let sym = nameNode ? checker.getSymbolAtLocation(nameNode) : undefined;
    if (sym && sym.flags & ts.SymbolFlags.Alias) sym = checker.getAliasedSymbol(sym);
    const decls = sym?.declarations ?? [];
    const withBody = decls.find((d) => (ts.isFunctionLike(d) && 'body' in d && d.body) || ts.isVariableDeclaration(d) || ts.isPropertyDeclaration(d) || ts.isPropertyAssignment(d) || ts.isBinaryExpression(d) || (ts.isPropertyAccessExpression(d) && ts.isBinaryExpression(d.parent)));
    const t = targetDecl(withBody ?? decls[0]);
    if (t) return t;
  }
  if (ts.isNewExpression(node)) {
    // `new C()` of a class without a constructor: the signature has no declaration; the class is the callee.
    let sym = checker.getSymbolAtLocation(ts.isPropertyAccessExpression(node.expression) ? node.expression.name : node.expression);
    if (sym && sym.flags & ts.SymbolFlags.Alias) sym = checker.getAliasedSymbol(sym);
    const cls = sym?.declarations?.find((d) => ts.isClassLike(d));
    const ctor = cls && ts.isClassLike(cls) ? cls.members.find((m) => ts.isConstructorDeclaration(m) && m.body) : undefined;
    if (cls && !ctor) return targetDecl(cls);
  }
  const sig = checker.getResolvedSignature(node);
  const decl = sig?.declaration;
  return decl && !ts.isJSDocSignature(decl) ? targetDecl(decl) : undefined;
}

/**
 * `paths` that let the checker see a monorepo's workspace packages without node_modules: each
 * package.json `name` maps to its source entry (`src/index`) and `name/*` to `src/*`, plus the
 * root tsconfig's own `paths`.
 */
function workspacePaths(root: string): { baseUrl: string; paths: Record<string, string[]> } {
  const paths: Record<string, string[]> = {};
  const walk = (dir: string, depth: number): void => {
    if (depth > 4) return;
    for (const name of readdirSync(dir)) {
      if (name.startsWith('.') || SKIP_DIRS.has(name)) continue;
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p, depth + 1);
      else if (name === 'package.json' && dir !== root) {
        try {
          const pkg = JSON.parse(readFileSync(p, 'utf8')) as { name?: string };
          const rel = relative(root, dir);
          if (pkg.name && !paths[pkg.name]) {
            paths[pkg.name] = [`${rel}/src/index`, `${rel}/src`, `${rel}/index`];
            paths[`${pkg.name}/*`] = [`${rel}/src/*`, `${rel}/*`];
          }
        } catch { /* not JSON: skip */ }
      }
    }
  };
  walk(root, 0);
  try {
    const cfg = ts.readConfigFile(join(root, 'tsconfig.json'), ts.sys.readFile).config as { compilerOptions?: { paths?: Record<string, string[]> } };
    Object.assign(paths, cfg?.compilerOptions?.paths ?? {});
  } catch { /* no root tsconfig */ }
  return { baseUrl: root, paths };
}

/**
 * Without `.d.ts` files that declare an ambient module named like a mapped package (a test
 * fixture's `declare module '@tanstack/react-query'`): in one program such a declaration would
 * shadow the package's sources for every importer, while the real build sees it in one tsconfig.
 */
function withoutShadowingDeclarations(files: string[], paths: Record<string, string[]>): string[] {
  return files.filter((f) => {
    if (!f.endsWith('.d.ts')) return true;
    const text = readFileSync(f, 'utf8');
    for (const m of text.matchAll(/declare\s+module\s+['"]([^'"]+)['"]/g)) if (paths[m[1]!]) return false;
    return true;
  });
}

export function oraclePairs(root: string, js = false): Set<string> {
  const mapped = workspacePaths(root);
  const files = withoutShadowingDeclarations(listTsFiles(root, js), mapped.paths);
  const program = ts.createProgram(files, {
    ...mapped,
    noEmit: true, allowJs: js, skipLibCheck: true, target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler, types: [],
    jsx: ts.JsxEmit.ReactJSX, allowImportingTsExtensions: true, noLib: false,
  });
  const checker = program.getTypeChecker();
  const inRepo = new Set(files.map((f) => ts.sys.resolvePath(f)));
  const pairs = new Set<string>();
  const rel = (sf: ts.SourceFile): string => relative(root, sf.fileName).split('\\').join('/');
  for (const sf of program.getSourceFiles()) {
    if (!inRepo.has(ts.sys.resolvePath(sf.fileName))) continue;
    const visit = (node: ts.Node): void => {
      if (ts.isCallExpression(node) || ts.isNewExpression(node) || ts.isTaggedTemplateExpression(node)) {
        const target = calledDecl(checker, node);
        const tsf = target?.getSourceFile();
        if (target && tsf && inRepo.has(ts.sys.resolvePath(tsf.fileName))) {
          const q = qualifiedName(target);
          if (q) {
            const callerDef = enclosingDef(node);
            const cq = callerDef ? qualifiedName(callerDef) : undefined;
            pairs.add(`${cq ? `${rel(sf)}#${cq}` : rel(sf)}\t${rel(tsf)}#${q}`);
          }
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  return pairs;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const root = process.argv[2];
  const js = process.argv.includes('--js');
  if (!root) {
    process.stderr.write('usage: oracle.ts <repo-dir> [--js]\n');
    process.exit(2);
  }
  const t0 = Date.now();
  const pairs = oraclePairs(root, js);
  process.stdout.write([...pairs].sort().join('\n') + '\n');
  process.stderr.write(`oracle: ${pairs.size} pairs in ${Date.now() - t0} ms\n`);
}
