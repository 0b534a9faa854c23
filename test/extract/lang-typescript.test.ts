import assert from 'node:assert/strict';
import { test } from 'node:test';
import { extractFileFacts } from '../../src/extract/file-facts.ts';
import { linkSources } from './lang-harness.ts';

test('extractFileFacts() TypeScript definitions: kinds, ids, signature, doc, visibility', async () => {
  const f = await extractFileFacts({
    path: 'src/a.ts', language: 'typescript',
    source: `/** Routes requests. */\nexport class Router extends Base implements I {\n  private db: Db;\n  constructor(private ctx: Ctx) { super(); }\n  add(path: string, h?: Handler): Router { return this; }\n}\ninterface I { m(a: number): void }\ntype A = string;\nenum E { X }\nexport const f = async (x: number): Promise<void> => {};\nfunction g(a = 1) {}\nfunction g2() {}\n`,
  });
  const by = new Map(f.symbols.map((s) => [s.id, s]));
  assert.equal(by.get('src/a.ts#Router')?.kind, 'class');
  assert.equal(by.get('src/a.ts#Router')?.doc, 'Routes requests.');
  assert.equal(by.get('src/a.ts#Router.constructor')?.kind, 'constructor');
  const add = by.get('src/a.ts#Router.add')!;
  assert.equal(add.kind, 'method');
  assert.deepEqual(add.signature?.params, [{ name: 'path', type: 'string' }, { name: 'h', type: 'Handler', optional: true }]);
  assert.equal(add.signature?.returns, 'Router');
  assert.equal(by.get('src/a.ts#I')?.kind, 'interface');
  assert.equal(by.get('src/a.ts#I.m')?.kind, 'method');
  assert.equal(by.get('src/a.ts#A')?.kind, 'type_alias');
  assert.equal(by.get('src/a.ts#E')?.kind, 'enum');
  assert.equal(by.get('src/a.ts#f')?.kind, 'function');
  assert.equal(by.get('src/a.ts#f')?.exported, true);
  assert.equal(by.get('src/a.ts#g')?.visibility, 'internal');
  assert.deepEqual(by.get('src/a.ts#Router')?.bases?.map((b) => `${b.relation} ${b.name.join('.')}`), ['extends Base', 'implements I']);
});

test('extractFileFacts() node ids are stable under edits elsewhere; overloads are one node', async () => {
  const a = await extractFileFacts({ path: 'x.ts', language: 'typescript', source: 'function f(a: string): void;\nfunction f(a: any) {}\nclass C { m() {} }' });
  const b = await extractFileFacts({ path: 'x.ts', language: 'typescript', source: '// header\n\nfunction f(a: string): void;\nfunction f(a: any) {}\nfunction extra() {}\nclass C { m() { extra() } }' });
  assert.deepEqual(a.symbols.map((s) => s.id), ['x.ts#f', 'x.ts#C', 'x.ts#C.m']);
  for (const id of a.symbols.map((s) => s.id)) assert.ok(b.symbols.some((s) => s.id === id), id);
});

test('TypeScript overloads: one node per run carrying every signature, doc from the first; calls resolve unambiguously', async () => {
  const g = await linkSources({
    'src/req.ts': '/** Doc. */\nexport function f(a: string): void;\nexport function f(a: number): void;\nexport function f(a: any) {}\nexport class Req {\n  /** A param. */\n  param(k: string): string;\n  param(): Record<string, string>;\n  param(k?: string) { return k; }\n  other(): void {}\n}\nexport interface I { m(a: string): void; m(a: number): void; }\n',
    'src/use.ts': "import { f, Req } from './req';\nexport function run(r: Req) { f(1); r.param('id'); }\n",
  });
  const node = (id: string) => g.nodes.find((n) => n.id === id);
  assert.deepEqual(g.nodes.filter((n) => n.source_file === 'src/req.ts').map((n) => n.id).sort(), ['src/req.ts', 'src/req.ts#I', 'src/req.ts#I.m', 'src/req.ts#Req', 'src/req.ts#Req.other', 'src/req.ts#Req.param', 'src/req.ts#f']);
  assert.equal((node('src/req.ts#f')?.signature as { raw: string }).raw, 'export function f(a: any)');
  assert.deepEqual((node('src/req.ts#f')?.overloads as { raw: string }[]).map((o) => o.raw), ['export function f(a: string): void;', 'export function f(a: number): void;']);
  assert.deepEqual((node('src/req.ts#Req.param')?.overloads as { raw: string }[]).map((o) => o.raw), ['param(k: string): string', 'param(): Record<string, string>']);
  assert.equal(node('src/req.ts#Req.param')?.doc, 'A param.');
  assert.equal(node('src/req.ts#f')?.span?.start_line, 4);
  assert.equal(node('src/req.ts#Req.other')?.overloads, undefined);
  assert.deepEqual((node('src/req.ts#I.m')?.overloads as { raw: string }[]).map((o) => o.raw), ['m(a: string): void']);
  const calls = g.edges('calls').sort();
  assert.deepEqual(calls, ['src/use.ts#run -> src/req.ts#Req.param', 'src/use.ts#run -> src/req.ts#f']);
  assert.equal(g.confidence('src/use.ts#run', 'src/req.ts#Req.param'), 'INFERRED');
});

test('linkGraph() resolves imports, namespace imports, default imports and barrels', async () => {
  const g = await linkSources({
    'src/util.ts': 'export function f() {}\nexport default function d() {}\n',
    'src/index.ts': "export { f as g } from './util';\nexport * from './more';\n",
    'src/more.ts': 'export const h = () => 1;\n',
    'src/main.ts': "import * as util from './util';\nimport d from './util';\nimport { g, h } from './index';\nexport function run() { util.f(); d(); g(); h(); }\n",
  });
  const calls = g.edges('calls');
  for (const t of ['src/util.ts#f', 'src/util.ts#d', 'src/more.ts#h']) assert.ok(calls.includes(`src/main.ts#run -> ${t}`), t);
  assert.equal(g.confidence('src/main.ts#run', 'src/util.ts#f'), 'EXTRACTED');
  assert.ok(g.edges('imports').includes('src/main.ts -> src/util.ts'));
  assert.ok(g.edges('re_exports').includes('src/index.ts -> src/util.ts'));
  assert.ok(g.edges('imports_from').includes('src/main.ts -> src/more.ts#h'));
});

test('linkGraph() resolves this, inherited methods, constructor receivers, annotations and return types', async () => {
  const g = await linkSources({
    'src/base.ts': 'export class Base { log() {} }\n',
    'src/router.ts': "import { Base } from './base';\nexport class Router extends Base {\n  add() { this.log(); this.inner(); }\n  inner() {}\n}\nexport function make(): Router { return new Router(); }\n",
    'src/ctx.ts': 'export class Context { json() {} }\n',
    'src/app.ts': "import { Router, make } from './router';\nimport type { Context } from './ctx';\nexport function app() { const r = new Router(); r.add(); make().inner(); }\nexport const h = (c: Context) => c.json();\nclass Svc { constructor(private readonly router: Router) {}\n  go() { this.router.add(); } }\n",
  });
  const calls = g.edges('calls');
  for (const e of [
    'src/router.ts#Router.add -> src/base.ts#Base.log', 'src/router.ts#Router.add -> src/router.ts#Router.inner',
    'src/app.ts#app -> src/router.ts#Router.add', 'src/app.ts#app -> src/router.ts#Router.inner',
    'src/app.ts#h -> src/ctx.ts#Context.json', 'src/app.ts#Svc.go -> src/router.ts#Router.add',
  ]) assert.ok(calls.includes(e), e);
  assert.equal(g.confidence('src/app.ts#app', 'src/router.ts#Router.add'), 'INFERRED');
  assert.ok(g.edges('instantiates').includes('src/app.ts#app -> src/router.ts#Router'));
  assert.ok(g.edges('extends').includes('src/router.ts#Router -> src/base.ts#Base'));
  assert.ok(g.edges('references').includes('src/app.ts#h -> src/ctx.ts#Context'));
});

test('linkGraph() follows tsconfig paths and workspace packages', async () => {
  const g = await linkSources({
    'packages/core/src/index.ts': 'export function core() {}\n',
    'src/lib/x.ts': 'export function x() {}\n',
    'src/main.ts': "import { core } from '@acme/core';\nimport { x } from '@/lib/x';\nexport function m() { core(); x(); }\n",
  }, {
    'tsconfig.json': '{ // comment\n "compilerOptions": { "baseUrl": ".", "paths": { "@/*": ["src/*"] }, } }',
    'packages/core/package.json': '{ "name": "@acme/core", "main": "dist/index.js" }',
  });
  const calls = g.edges('calls');
  assert.ok(calls.includes('src/main.ts#m -> packages/core/src/index.ts#core'));
  assert.ok(calls.includes('src/main.ts#m -> src/lib/x.ts#x'));
});

test('linkGraph() local bindings shadow outer names; unknown calls are counted, not guessed', async () => {
  const g = await linkSources({
    'a.ts': 'function update() {}\nexport function f(update: () => void) { update(); }\nexport function k() { const [a, update2] = [1, 2]; mystery(); }\n',
  });
  assert.ok(!g.edges('calls').includes('a.ts#f -> a.ts#update'));
  assert.equal(g.unresolvedCalls['a.ts'], 2);
});

test('linkGraph() records hazards and a dynamic_ref for a string key naming a unique symbol', async () => {
  const g = await linkSources({
    'h.ts': "export function target() {}\nexport function run(o: any, k: string) { o['target'](); o[k](); eval('1'); import('./x'); Reflect.apply(o, null, []); }\n",
  });
  assert.deepEqual(g.hazards.map((h) => h.kind).sort(), ['computed_member', 'computed_member', 'dynamic_import', 'eval', 'reflection']);
  assert.ok(g.edges('dynamic_ref').includes('h.ts#run -> h.ts#target'));
});

test('linkGraph() adds tests edges from test files', async () => {
  const g = await linkSources({
    'src/sum.ts': 'export function sum() {}\n',
    'src/sum.test.ts': "import { sum } from './sum';\ntest('s', () => { sum(); });\n",
  });
  assert.ok(g.edges('tests').includes('src/sum.test.ts -> src/sum.ts#sum'));
  assert.ok(g.nodes.find((n) => n.id === 'src/sum.test.ts')?.is_test);
});

test('linkGraph() is deterministic: input order does not change the output', async () => {
  const sources: Record<string, string> = {
    'src/a.ts': "import { b } from './b';\nexport function a() { b(); }\n",
    'src/b.ts': "import { c } from './c';\nexport function b() { c(); }\nexport class K { m() { this.n(); } n() {} }\n",
    'src/c.ts': 'export function c() {}\n',
  };
  const g1 = await linkSources(sources);
  const reversed = Object.fromEntries(Object.entries(sources).reverse());
  const g2 = await linkSources(reversed);
  assert.equal(JSON.stringify({ n: g1.nodes, l: g1.links }), JSON.stringify({ n: g2.nodes, l: g2.links }));
  assert.ok(g1.links.length > 5);
});
