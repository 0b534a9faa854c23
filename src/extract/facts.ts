/**
 * Per-file extraction facts: what one source file declares, imports, calls and references, before
 * any cross-file resolution. Plain structured-cloneable data (workers post it; the pipeline caches
 * it), independent of every other file, so an incremental update re-parses only changed files.
 * Browser-safe.
 */
import type { NodeKey, NodeKind, Signature, Span, Visibility } from '../graph/model.ts';
import type { LanguageId } from './languages.ts';
import type { SqlFacts } from './sql/facts.ts';
import type { HttpFacts } from './http/facts.ts';

/** Bumped whenever the facts shape or extraction rules change (cached facts are then discarded). */
export const FACTS_VERSION = 32;

/**
 * Definitions nested deeper than this are folded into their enclosing definition: ids carry the
 * whole nesting chain, so without a bound 4,000 nested functions make ids quadratic in file size.
 * Real code stays under 10 (hono and prisma: 6).
 */
export const MAX_NESTING = 32;
/** A definition whose qualified name would be longer is folded too (real code: under 100). */
export const MAX_QNAME_CHARS = 512;

/** A dotted type or name path as written, e.g. `['util', 'Router']`; generics and arrays stripped. */
export type NamePath = string[];

/**
 * A callee/receiver expression, reduced to what name resolution needs.
 * `id` a bare name; `this`/`super`; `mem` a member access `o.n`; `call` the result of calling `f`;
 * `new` a constructed instance of type `t`; `unk` anything else (literal, computed, ...).
 */
export type Expr =
  | { k: 'id'; n: string }
  | { k: 'this' }
  | { k: 'super' }
  | { k: 'mem'; o: Expr; n: string }
  | { k: 'call'; f: Expr }
  | { k: 'new'; t: NamePath }
  /** A Rust module path root: `crate`, `self`, `super`, `super::super` (the module it names). */
  | { k: 'path'; p: string }
  | { k: 'unk' };

export interface BaseRef {
  name: NamePath;
  relation: 'extends' | 'implements' | 'inherits' | 'embeds' | 'mixes_in';
  line: number;
}

export interface SymbolFact {
  /** Stable node id: `<path>#<qualified.name>` (`~2`, `~3` for same-name overloads in one file). */
  id: NodeKey;
  name: string;
  /** Dotted qualified name inside the file, e.g. `Router.add`. */
  qname: string;
  kind: NodeKind;
  /** Index of the enclosing symbol in `FileFacts.symbols`, or -1 at top level. */
  parent: number;
  span: Span;
  visibility?: Visibility;
  /** Exported from its module (TS/JS `export`, Go capitalised, Python public top level, ...). */
  exported: boolean;
  /** TS/JS `export default`. */
  isDefault?: boolean;
  isStatic?: boolean;
  /** A property getter (`get x()`): reading the member yields its return value. */
  isGetter?: boolean;
  isTest?: boolean;
  signature?: Signature;
  /** TypeScript overloads: the signatures declared before the implementation (`signature`), in order. */
  overloads?: Signature[];
  /** Return type as a name path, when annotated (used to type `f().g()` receivers). */
  returns?: NamePath;
  /** Without a return annotation: the first `return` expression (or arrow expression body). */
  returnExpr?: Expr;
  doc?: string;
  bases?: BaseRef[];
  /** Receiver / impl type of a method declared outside its type (Go receivers, Rust impl, C++ `T::m`). */
  owner?: string;
  /** Scalar attributes copied onto the node (SQL: a table's primary_key, a policy's command, ...). */
  extra?: Record<string, string | boolean>;
}

/**
 * One imported binding. `imported`: an exported name, `default`, `*` (whole module / namespace) or
 * `` (side-effect import). `local`: the local binding name ('' when none). `reexport`: the binding
 * is re-exported under `local` (`export { a as b } from`, `export * from` has imported `*`, local ``).
 */
export interface ImportFact {
  module: string;
  imported: string;
  local: string;
  line: number;
  reexport?: boolean;
  typeOnly?: boolean;
  /** Symbol index the import sits in (Python imports inside functions), -1 for file level. */
  scope: number;
}

/** `export { local as exported }` without a source module; `export default <local>`. */
export interface ExportFact {
  local: string;
  exported: string;
  line: number;
}

export interface CallFact {
  /** Enclosing symbol index (innermost named function/method/class), -1 for top-level code. */
  scope: number;
  line: number;
  callee: Expr;
  /**
   * `new X()` / constructor call, `super(...)` call, an ordinary call, or `ref`: a value use of
   * the named function or class (passed as an argument, assigned, returned, listed), not a call;
   * `macro`: a macro invocation (Rust `name!(..)`), linked only to a macro definition (`expands`).
   */
  form: 'call' | 'new' | 'super' | 'ref' | 'macro';
  /** The arguments (Java, to pick the overload they select; literals as `new` of their type). */
  args?: Expr[];
}

/** A local variable / parameter / field binding with what is known of its type. */
export interface BindingFact {
  /** Function (parameter, local) or type (field) symbol index; -1 for module-level variables. */
  scope: number;
  name: string;
  type?: NamePath;
  value?: Expr;
  /** Field of the type `scope` (TS class field, constructor parameter property, `this.x =`). */
  field?: boolean;
  /** Module-level binding that is exported (`export const x = ...`). */
  exported?: boolean;
  /** Scope the value is evaluated in, when not `scope` (`this.x = v` inside a method). */
  at?: number;
  /** A parameter (an untyped one may get its type from same-named annotated parameters). */
  param?: boolean;
  /**
   * First and last line where the binding is visible (Go block scopes, a func literal's parameters);
   * absent: the whole scope. Among same-named bindings of one scope a site sees the visible one
   * declared last (link/resolver-names.ts).
   */
  lines?: [number, number];
}

export interface TypeRefFact {
  scope: number;
  name: NamePath;
  line: number;
}

export interface HazardFact {
  kind: 'dynamic_call' | 'eval' | 'dynamic_import' | 'reflection' | 'computed_member';
  scope: number;
  line: number;
  text: string;
  /** String-literal member or symbol name looked up by name, when there is one. */
  key?: string;
}

export interface FileFacts {
  path: string;
  language: LanguageId;
  factsVersion: number;
  lines: number;
  /** Id of the file node (the path itself). */
  fileId: NodeKey;
  isTest: boolean;
  /** Package / namespace the file declares (Go package, Java/C#/PHP namespace, ...). */
  packageName?: string;
  symbols: SymbolFact[];
  imports: ImportFact[];
  exports: ExportFact[];
  calls: CallFact[];
  bindings: BindingFact[];
  typeRefs: TypeRefFact[];
  hazards: HazardFact[];
  /** Where the parser recovered from syntax errors (first few), when the file has any. */
  syntaxErrors?: { line: number }[];
  /**
   * Definitions left out by the nesting bounds ({@link MAX_NESTING}, {@link MAX_QNAME_CHARS}): how
   * many and the line of the first. Their calls, bindings and references count as the enclosing
   * definition's.
   */
  folded?: { definitions: number; line: number };
  /**
   * The tags query ran out of its work budget (a pattern made quadratic by pathological nesting)
   * and stopped after this line: what follows has no definitions, calls or statements.
   */
  queryStopped?: { line: number };
  /** SQL schema edges (`.sql` files) and SQL queries in code, resolved by table name when linking. */
  sql?: SqlFacts;
  /** HTTP routes this file registers (their `route` symbols' handlers) and client calls with a literal path. */
  http?: HttpFacts;
}
