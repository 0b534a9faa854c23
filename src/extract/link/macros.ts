/**
 * Macro invocations (Rust `name!(..)`): macros live in their own namespace, so an invocation links
 * only to a macro definition (`macro_rules!`, a symbol marked `macro`) by an `expands` edge, never
 * to a function of the same name (`format!` is not a test's `fn format()`). A macro defined nowhere
 * in the repository (`println!`, `vec!`, a crate's) gets no edge and is not an unresolved call.
 */
import type { Confidence } from '../../graph/model.ts';
import type { CallFact } from '../facts.ts';
import type { Resolver } from './resolver.ts';

/** At most this many same-named macros are linked (AMBIGUOUS); more: none. */
const MACRO_CAP = 4;

export interface MacroTargets {
  targets: [number, number][];
  conf: Confidence;
}

/** Whether symbol (f, i) is a macro definition. */
export function isMacro(r: Resolver, f: number, i: number): boolean {
  return r.sym(f, i).extra?.macro === true;
}

/** The crate a Rust file belongs to: its path up to and including the last `src/`, else its folder. */
function crateOf(path: string): string {
  const at = path.lastIndexOf('src/');
  return at >= 0 ? path.slice(0, at + 4) : path.slice(0, path.lastIndexOf('/') + 1);
}

/**
 * The macro definitions an invocation names: one in the invoking file (textual scope: the last
 * defined before the invocation, else any) is EXTRACTED; else the invoking crate's macros of that
 * name (`#[macro_export]`, `#[macro_use]`): one is INFERRED, several AMBIGUOUS. `crate::m!`, `$crate::m!`
 * name the macro by its last segment.
 */
export function resolveMacro(r: Resolver, f: number, c: CallFact): MacroTargets | null {
  const e = c.callee;
  const name = e.k === 'id' ? e.n : e.k === 'mem' ? e.n : undefined;
  if (!name) return null;
  // A path rooted in another crate (`log::info!`, `serde_json::json!`) is that crate's macro.
  if (e.k === 'mem' && !(e.o.k === 'path' || (e.o.k === 'id' && e.o.n === '$crate'))) return null;
  const syms = r.file(f).symbols;
  let own = -1;
  for (let i = 0; i < syms.length; i++) {
    const s = syms[i]!;
    if (s.name !== name || s.extra?.macro !== true) continue;
    if (own < 0 || s.span.start_line <= c.line) own = i;
  }
  if (own >= 0) return { targets: [[f, own]], conf: 'EXTRACTED' };
  const all = r.globalsNamed(name).filter(([cf, ci]) => cf !== f && r.file(cf).language === 'rust' && isMacro(r, cf, ci));
  if (all.length === 0) return null;
  // (another crate's macro is in scope only through an import or `#[macro_use] extern crate`,
  // which a same-named std macro, `vec!` or `write!`, makes too likely a guess)
  const crate = crateOf(r.file(f).path);
  const list = all.filter(([cf]) => crateOf(r.file(cf).path) === crate);
  if (list.length === 0) return null;
  if (list.length === 1) return { targets: list, conf: 'INFERRED' };
  return list.length <= MACRO_CAP ? { targets: list, conf: 'AMBIGUOUS' } : null;
}
