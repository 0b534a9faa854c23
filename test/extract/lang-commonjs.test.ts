/**
 * CommonJS and assignment-defined JavaScript (#17 item 1): `obj.x = function`, `X.prototype.y =
 * function`, `exports.f =`, `module.exports = { ... }`, `require('m').f`, `new F()` of constructor
 * functions, and nested `const f = () => ...` called from their enclosing function.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { linkSources } from './lang-harness.ts';

const EXPRESS_LIKE = {
  'lib/application.js': [
    "var compileTrust = require('./utils').compileTrust;",
    'var app = exports = module.exports = {};',
    '',
    '/**',
    ' * Initialize the server.',
    ' */',
    'app.init = function init() {',
    "  this.set('trust proxy', true);",
    '};',
    '',
    'app.set = function set(setting, val) {',
    '  return compileTrust(val);',
    '};',
    '',
    'function set() {}',
    'app.handle = function handle() {',
    "  app.set('x');",
    '  set();',
    '};',
  ].join('\n'),
  'lib/utils.js': [
    'exports.compileTrust = function (val) {',
    '  return parse(val);',
    '};',
    'function parse(v) { return v; }',
  ].join('\n'),
  'lib/view.js': [
    'function View(name) {',
    '  this.name = name;',
    '  this.path = this.lookup(name);',
    '}',
    'View.prototype.lookup = function lookup(name) {',
    '  return this.resolve(name);',
    '};',
    'View.prototype.resolve = function (name) { return name; };',
    'View.create = function (name) { return new View(name); };',
    'module.exports = View;',
  ].join('\n'),
  'lib/codec.js': [
    'module.exports = {',
    '  parse(text) { return decode(text); },',
    '  format: function (value) { return String(value); },',
    '};',
    'function decode(t) { return t; }',
  ].join('\n'),
  'lib/render.js': [
    "var View = require('./view');",
    "var codec = require('./codec');",
    'function render(name) {',
    '  var view = new View(name);',
    '  view.lookup(name);',
    '  View.create(name);',
    '  return codec.parse(name);',
    '}',
    'module.exports = render;',
  ].join('\n'),
};

test('linkGraph() JavaScript: obj.x = function and X.prototype.y = function are methods of obj / X', async () => {
  const g = await linkSources(EXPRESS_LIKE);
  const ids = new Set(g.nodes.map((n) => n.id));
  for (const id of ['lib/application.js#app.init', 'lib/application.js#app.set', 'lib/application.js#app.handle',
    'lib/view.js#View.lookup', 'lib/view.js#View.resolve', 'lib/view.js#View.create']) assert.ok(ids.has(id), id);
  const init = g.nodes.find((n) => n.id === 'lib/application.js#app.init')!;
  assert.equal(init.kind, 'method');
  assert.equal(init.label, 'app.init');
  assert.equal(init.doc, 'Initialize the server.');
  const calls = g.edges('calls');
  for (const e of [
    'lib/application.js#app.init -> lib/application.js#app.set', // this.set in a method of app
    'lib/application.js#app.handle -> lib/application.js#app.set', // app.set by the object's name
    'lib/application.js#app.handle -> lib/application.js#set', // a bare set() is the function, not app.set
    'lib/application.js#app.set -> lib/utils.js#compileTrust', // require('./utils').compileTrust
    'lib/view.js#View -> lib/view.js#View.lookup', // this in a constructor function
    'lib/view.js#View.lookup -> lib/view.js#View.resolve', // this in a prototype method
    'lib/view.js#View.create -> lib/view.js#View', // new of a constructor function
  ]) assert.ok(calls.includes(e), `${e}\n${calls.join('\n')}`);
  assert.ok(!calls.includes('lib/application.js#app.handle -> lib/application.js#app.handle'));
});

test('linkGraph() JavaScript: exports.f, module.exports = { ... } members and their callers across files', async () => {
  const g = await linkSources(EXPRESS_LIKE);
  const calls = g.edges('calls');
  for (const e of [
    'lib/utils.js#compileTrust -> lib/utils.js#parse',
    'lib/codec.js#parse -> lib/codec.js#decode',
    'lib/render.js#render -> lib/view.js#View', // new View() of the required constructor
    'lib/render.js#render -> lib/view.js#View.lookup', // a method of the instance
    'lib/render.js#render -> lib/view.js#View.create', // a static member of the function
    'lib/render.js#render -> lib/codec.js#parse', // a member of module.exports = { ... }
  ]) assert.ok(calls.includes(e), `${e}\n${calls.join('\n')}`);
  assert.equal(g.confidence('lib/render.js#render', 'lib/view.js#View.lookup'), 'INFERRED'); // typed by new View(), not by name
  const codec = g.nodes.filter((n) => n.source_file === 'lib/codec.js').map((n) => `${n.id} ${n.kind}`);
  assert.deepEqual(codec.sort(), ['lib/codec.js file', 'lib/codec.js#decode function', 'lib/codec.js#format function', 'lib/codec.js#parse function']);
});

test('linkGraph() an object literal assigned to something other than module.exports holds no definitions', async () => {
  const g = await linkSources({ 'a.js': 'var o = {};\nfoo.bar = { m() { return 1; } };\nmodule.exports.x = { n() {} };\n' });
  assert.deepEqual(g.nodes.filter((n) => n.kind !== 'file').map((n) => n.id), []);
});

test('linkGraph() TypeScript: a nested `const f = () => ...` is called from its enclosing function', async () => {
  const g = await linkSources({
    'bench.ts': 'export function main() {\n  const change = (a: number) => a * 2;\n  const unknown = make();\n  return change(1) + unknown();\n}\nfunction make() { return () => 1; }\n',
  });
  assert.ok(g.edges('calls').includes('bench.ts#main -> bench.ts#main.change'), g.edges('calls').join('\n'));
});

test('linkGraph() value uses: passed, listed, returned, assigned, a getter read; locals and parameters give nothing', async () => {
  const g = await linkSources({
    'src/graph.ts': 'export function removeNode(n: number) {}\nexport class Store {\n  get size(): number { return 1; }\n  handle() {}\n  wire(on: (f: () => void) => void) { on(this.handle); return this.size; }\n}\n',
    'src/use.ts': "import { removeNode, Store } from './graph';\nexport function prune(nodes: number[]) { nodes.forEach(removeNode); }\nexport const handlers = { removeNode };\nexport function pick() { return removeNode; }\nconst kinds = [Store];\nlet current = removeNode;\nfunction local(x: number) { const y = x; use(y, x); }\n",
  });
  assert.deepEqual(g.edges('references').filter((e) => !e.includes('#Store ->')).sort(), [
    'src/graph.ts#Store.wire -> src/graph.ts#Store.handle', // a method passed as a callback
    'src/graph.ts#Store.wire -> src/graph.ts#Store.size', // a getter read, returned
    'src/use.ts -> src/graph.ts#Store', // listed in an array
    'src/use.ts -> src/graph.ts#removeNode', // { removeNode } and let current = removeNode
    'src/use.ts#pick -> src/graph.ts#removeNode', // returned
    'src/use.ts#prune -> src/graph.ts#removeNode', // passed as an argument
  ]);
  assert.ok(!g.edges('calls').some((e) => e.endsWith('#removeNode')));
});
