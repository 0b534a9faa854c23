/**
 * Call-graph oracle: the TypeScript checker's resolved call targets for a repository.
 *
 *   node --import tsx bench/accuracy/oracle.ts <repo-dir> > oracle.tsv
 *
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
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

const SKIP_DIRS = new Set(['node_modules', 'dist', 'build', '.git', 'coverage', 'out', '.next', 'vendor']);

export function listTsFiles(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir).sort()) {
      if (name.startsWith('.')) continue;
      const p = join(dir, name);
      const st = statSync(p);
      if (st.isDirectory()) {
        if (!SKIP_DIRS.has(name)) walk(p);
      } else if (/\.(c|m)?tsx?$/.test(name) && st.size < 1_000_000) out.push(p);
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
  if (ts.isArrowFunction(n) || ts.isFunctionExpression(n)) {
    const p = n.parent;
    if (ts.isVariableDeclaration(p) && p.initializer === n && ts.isIdentifier(p.name)) return p.name.text;
    if (ts.isPropertyDeclaration(p) && p.initializer === n && ts.isClassLike(p.parent)) return nameText(p.name);
  }
  return undefined;
}

/** The node whose parent chain defines nesting (for function expressions: the declaration holding them). */
function qualifiedName(n: ts.Node): string | undefined {
  const parts: string[] = [];
  for (let cur: ts.Node | undefined = n; cur; cur = cur.parent) {
    const name = defName(cur);
    if (name !== undefined) parts.push(name);
    else if (cur === n) return undefined;
    if ((ts.isArrowFunction(cur) || ts.isFunctionExpression(cur)) && name !== undefined) {
      cur = cur.parent; // skip the VariableDeclaration / PropertyDeclaration
    }
  }
  return parts.reverse().join('.');
}

/** Innermost enclosing named definition of a node (not the node itself). */
function enclosingDef(n: ts.Node): ts.Node | undefined {
  for (let cur = n.parent; cur; cur = cur.parent) if (defName(cur) !== undefined) return cur;
  return undefined;
}

function targetDecl(d: ts.Declaration): ts.Node | undefined {
  // Overloads and signatures map to the named declaration that holds them.
  if (defName(d) !== undefined) return d;
  return undefined;
}

export function oraclePairs(root: string): Set<string> {
  const files = listTsFiles(root);
  const program = ts.createProgram(files, {
    noEmit: true, allowJs: false, skipLibCheck: true, target: ts.ScriptTarget.ES2022,
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
      if (ts.isCallExpression(node) || ts.isNewExpression(node)) {
        const sig = checker.getResolvedSignature(node);
        const decl = sig?.declaration;
        if (decl && !ts.isJSDocSignature(decl)) {
          const target = targetDecl(decl);
          const tsf = target?.getSourceFile();
          if (target && tsf && inRepo.has(ts.sys.resolvePath(tsf.fileName))) {
            const q = qualifiedName(target);
            if (q) {
              const callerDef = enclosingDef(node);
              const cq = callerDef ? qualifiedName(callerDef) : undefined;
              const caller = cq ? `${rel(sf)}#${cq}` : rel(sf);
              pairs.add(`${caller}\t${rel(tsf)}#${q}`);
            }
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
  if (!root) {
    process.stderr.write('usage: oracle.ts <repo-dir>\n');
    process.exit(2);
  }
  const t0 = Date.now();
  const pairs = oraclePairs(root);
  process.stdout.write([...pairs].sort().join('\n') + '\n');
  process.stderr.write(`oracle: ${pairs.size} pairs in ${Date.now() - t0} ms\n`);
}
