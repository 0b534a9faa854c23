/** The `LangSpec` of each language. */
import type { LanguageId } from '../languages.ts';
import { ECMASCRIPT_SPEC } from './ecmascript.ts';
import { GO_SPEC } from './go.ts';
import { CPP_SPEC, CSHARP_SPEC, JAVA_SPEC, PHP_SPEC, RUBY_SPEC } from './others.ts';
import { PYTHON_SPEC } from './python.ts';
import { RUST_SPEC } from './rust.ts';
import type { LangSpec } from './spec.ts';

const SPECS: Partial<Record<LanguageId, LangSpec>> = {
  typescript: ECMASCRIPT_SPEC,
  tsx: ECMASCRIPT_SPEC,
  javascript: ECMASCRIPT_SPEC,
  python: PYTHON_SPEC,
  go: GO_SPEC,
  rust: RUST_SPEC,
  java: JAVA_SPEC,
  csharp: CSHARP_SPEC,
  cpp: CPP_SPEC,
  c: CPP_SPEC,
  ruby: RUBY_SPEC,
  php: PHP_SPEC,
};

/** The hooks of a language; throws for a language without extraction support. */
export function specFor(language: LanguageId): LangSpec {
  const s = SPECS[language];
  if (!s) throw new Error(`Cannot extract "${language}": no language hooks registered`);
  return s;
}
