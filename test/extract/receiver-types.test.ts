/**
 * Receivers typed the way the TypeScript checker types them (#17 item 1), each cause found in zod
 * against the checker oracle: methods returning `this` (fluent builders), a value and a type of one
 * name (`type OK<T>` + `const OK`), `new C()` of a class that inherits its constructor.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { linkSources } from './lang-harness.ts';

test('linkGraph() a method returning this keeps the receiver type through a chain, a subclass included', async () => {
  const g = await linkSources({
    'src/schemas.ts': [
      'export class Base {',
      '  min(n: number): this { return this; }',
      '  refine(f: (x: unknown) => boolean): this { return this; }',
      '  parse(x: unknown): unknown { return x; }',
      '}',
      'export class Str extends Base {',
      '  trim(): this { return this; }',
      '}',
      'export function string(): Str { return new Str(); }',
    ].join('\n'),
    'src/use.ts': [
      "import * as z from './schemas';",
      'export function run() {',
      '  return z.string().min(1).trim().refine((x) => !!x).parse("a");',
      '}',
    ].join('\n'),
  });
  const calls = g.edges('calls');
  for (const e of ['src/use.ts#run -> src/schemas.ts#Base.min', 'src/use.ts#run -> src/schemas.ts#Str.trim', 'src/use.ts#run -> src/schemas.ts#Base.refine', 'src/use.ts#run -> src/schemas.ts#Base.parse']) {
    assert.ok(calls.includes(e), `${e}\n${calls.join('\n')}`);
  }
});

test('linkGraph() a value and a type of one name: calls reach the value, types the type', async () => {
  const g = await linkSources({
    'src/parse-util.ts': [
      'export type OK<T> = { status: "valid"; value: T };',
      'export const OK = <T>(value: T): OK<T> => ({ status: "valid", value });',
      'export interface _Str { min(n: number): this; max(n: number): this }',
      'export const _Str = make();',
      'export interface Str extends _Str { email(): this }',
      'export function make(): any { return {}; }',
      'export function str(): Str { return make(); }',
    ].join('\n'),
    'src/types.ts': [
      "import { OK, str } from './parse-util';",
      'export function parse(x: number) { return OK(x); }',
      'export function check() { return str().min(1).email().max(2); }',
    ].join('\n'),
  });
  const calls = g.edges('calls');
  // (the value is the second declaration named OK: id OK~2; the type alias OK is not callable)
  assert.ok(!calls.includes('src/types.ts#parse -> src/parse-util.ts#OK'), calls.join('\n'));
  for (const e of ['src/types.ts#parse -> src/parse-util.ts#OK~2', 'src/types.ts#check -> src/parse-util.ts#_Str.min', 'src/types.ts#check -> src/parse-util.ts#Str.email', 'src/types.ts#check -> src/parse-util.ts#_Str.max']) {
    assert.ok(calls.includes(e), `${e}\n${calls.join('\n')}`);
  }
  assert.ok(g.edges('extends').includes('src/parse-util.ts#Str -> src/parse-util.ts#_Str'), g.edges('extends').join('\n'));
});

test('linkGraph() new C() of a TypeScript class without its own constructor instantiates C, not the base constructor', async () => {
  const g = await linkSources({
    'src/a.ts': [
      'export class ZodType { constructor(readonly def: unknown) {} }',
      'export class ZodString extends ZodType {',
      '  trim() { return new ZodString({}); }',
      '}',
      'export class ZodNumber extends ZodType {',
      '  constructor() { super({}); }',
      '}',
      'export function num() { return new ZodNumber(); }',
    ].join('\n'),
  });
  assert.ok(g.edges('instantiates').includes('src/a.ts#ZodString.trim -> src/a.ts#ZodString'), g.edges('instantiates').join('\n'));
  assert.ok(!g.edges('calls').includes('src/a.ts#ZodString.trim -> src/a.ts#ZodType.constructor'), g.edges('calls').join('\n'));
  assert.ok(g.edges('calls').includes('src/a.ts#num -> src/a.ts#ZodNumber.constructor'));
  assert.ok(g.edges('calls').includes('src/a.ts#ZodNumber.constructor -> src/a.ts#ZodType.constructor'), 'super(...) still reaches the base constructor');
});
