/**
 * The names a file declares, read from its syntax alone: what a property call `x.m()` can resolve to
 * in the repository. A call whose property no graph file declares resolves, if at all, to a library
 * member, so precise mode does not ask the checker about it (the receiver's type is often the costly
 * part: `expect(schema.parse(data)).toEqual(...)`). Export and import aliases count as declared
 * (`export { _void as void }` makes `z.void()` a repository call), as do JavaScript's expando
 * assignments (`exports.f = …`, `X.prototype.y = …`, `this.z = …`).
 */
import type * as TS from 'typescript';
import type { TypeScript } from './program.node.ts';

/** The text of a declaration name (identifier, `#private`, string or number literal, literal computed key). */
function nameText(ts: TypeScript, n: TS.Node | undefined): string | undefined {
  if (!n) return undefined;
  if (ts.isIdentifier(n) || ts.isPrivateIdentifier(n) || ts.isStringLiteralLike(n) || ts.isNumericLiteral(n)) return n.text;
  if (ts.isComputedPropertyName(n)) return nameText(ts, n.expression);
  return undefined;
}

/** Every name `sf` declares or aliases, sorted, each once. */
export function declaredNames(ts: TypeScript, sf: TS.SourceFile): string[] {
  const out = new Set<string>();
  const add = (n: TS.Node | undefined): void => {
    const t = nameText(ts, n);
    if (t !== undefined) out.add(t);
  };
  const visit = (node: TS.Node): void => {
    // A property access names a member, it declares none (unless assigned to, below).
    if (!ts.isPropertyAccessExpression(node) && !ts.isMetaProperty(node)) add((node as TS.Node & { name?: TS.Node }).name);
    if (ts.isImportSpecifier(node) || ts.isExportSpecifier(node) || ts.isBindingElement(node)) add(node.propertyName);
    else if (ts.isExportAssignment(node)) out.add('default');
    else if (ts.canHaveModifiers(node) && ts.getModifiers(node)?.some((m) => m.kind === ts.SyntaxKind.DefaultKeyword)) out.add('default');
    else if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.EqualsToken) {
      const left = node.left;
      if (ts.isPropertyAccessExpression(left)) add(left.name);
      else if (ts.isElementAccessExpression(left)) add(left.argumentExpression);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return [...out].sort();
}

/** The member name a call's callee names (`x.m()`, `new x.C()`, x.tag`…`), or undefined (not a property access). */
export function calledProperty(ts: TypeScript, node: TS.CallExpression | TS.NewExpression | TS.TaggedTemplateExpression): string | undefined {
  const callee = ts.isTaggedTemplateExpression(node) ? node.tag : node.expression;
  return ts.isPropertyAccessExpression(callee) ? callee.name.text : undefined;
}
