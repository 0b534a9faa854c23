import assert from 'node:assert/strict';
import { test } from 'node:test';
import { linkSources } from './lang-harness.ts';

test('Rust: structs, traits, impl methods, use paths, self and associated calls', async () => {
  const g = await linkSources({
    'src/store.rs': '/// A store.\npub struct Store { items: Vec<u32> }\n\npub trait Save { fn save(&self); }\n\nimpl Store {\n    pub fn new() -> Store { Store { items: vec![] } }\n    pub fn add(&mut self, x: u32) { self.check(); }\n    fn check(&self) {}\n}\n',
    'src/main.rs': 'use crate::store::Store;\n\nfn main() {\n    let mut s = Store::new();\n    s.add(1);\n    let t: Store = Store::new();\n    t.check();\n}\n',
  });
  const node = (id: string) => g.nodes.find((n) => n.id === id);
  assert.equal(node('src/store.rs#Store')?.kind, 'struct');
  assert.equal(node('src/store.rs#Store')?.doc, 'A store.');
  assert.equal(node('src/store.rs#Save')?.kind, 'trait');
  assert.equal(node('src/store.rs#Store.add')?.kind, 'method');
  assert.equal(node('src/store.rs#Store.check')?.visibility, 'private');
  const calls = g.edges('calls');
  for (const e of ['src/store.rs#Store.add -> src/store.rs#Store.check', 'src/main.rs#main -> src/store.rs#Store.new', 'src/main.rs#main -> src/store.rs#Store.add'])
    assert.ok(calls.includes(e), e);
});

test('Rust macros: an invocation expands a macro_rules! definition, never calls a same-named fn', async () => {
  const g = await linkSources({
    'src/lib.rs': 'mod util;\n\nmacro_rules! my_mac { () => {} }\n\npub fn run() {\n    let s = format!("x");\n    println!("{}", s);\n    my_mac!();\n    util::shout!();\n}\nfn my_fn() { my_mac(); }\n#[cfg(test)]\nmod tests { fn format() {} fn println() {} fn my_mac() {} }\n',
    'src/util.rs': '#[macro_export]\nmacro_rules! shout { () => {} }\npub fn helper() { shout!(); }\n',
    'other/src/lib.rs': 'macro_rules! shout { () => {} }\n',
  });
  const node = (id: string) => g.nodes.find((n) => n.id === id);
  assert.equal(node('src/lib.rs#my_mac')?.macro, true);
  assert.equal(node('src/lib.rs#run')?.macro, undefined);
  // No call edge from a macro invocation; the test's `fn format()` has no caller.
  assert.deepEqual(g.edges('calls').filter((e) => e.startsWith('src/lib.rs#run')), []);
  assert.ok(!g.links.some((l) => l.relation !== 'contains' && (l.target === 'src/lib.rs#tests.format' || l.target === 'src/lib.rs#tests.println')));
  assert.deepEqual(g.edges('expands').sort(), ['src/lib.rs#run -> src/lib.rs#my_mac', 'src/util.rs#helper -> src/util.rs#shout']);
  assert.equal(g.confidence('src/lib.rs#run', 'src/lib.rs#my_mac', 'expands'), 'EXTRACTED');
  // A plain call `my_mac()` is a function's (the test module's), never the macro's.
  assert.ok(!g.edges('calls').includes('src/lib.rs#my_fn -> src/lib.rs#my_mac'));
});

test('Rust macros: defined in another file of the crate (#[macro_export]) is INFERRED, another crate\'s or an external one links nowhere', async () => {
  const g = await linkSources({
    'src/macros.rs': '#[macro_export]\nmacro_rules! shout { () => {} }\n',
    'src/lib.rs': '#[macro_use]\nmod macros;\npub fn run() { shout!(); vec![1]; }\n',
    'other/src/lib.rs': 'macro_rules! shout { () => {} }\nmacro_rules! vec { () => {} }\nfn f() { shout!(); }\n',
  });
  assert.deepEqual(g.edges('expands').sort(), ['other/src/lib.rs#f -> other/src/lib.rs#shout', 'src/lib.rs#run -> src/macros.rs#shout']);
  assert.equal(g.confidence('src/lib.rs#run', 'src/macros.rs#shout', 'expands'), 'INFERRED');
});

test('Rust paths: mod x; x::f(), use crate::a::b; b::f(), crate::x::f(), super::f(), self::f() reach the fn in that module file', async () => {
  const g = await linkSources({
    'src/lib.rs': 'mod util;\nmod net;\npub mod a;\n\npub fn run() {\n    util::helper();\n    crate::net::connect();\n    self::local();\n    a::b::deep();\n    crate::a::b::deep();\n    crate::log!();\n}\nfn local() {}\nmacro_rules! log { () => {} }\nmod tests {\n    fn t() { super::local(); self::inner(); }\n    fn inner() {}\n}\n',
    'src/util.rs': 'pub fn helper() { super::local(); }\n',
    'src/net/mod.rs': 'pub fn connect() {}\n',
    'src/a/mod.rs': 'pub mod b;\n',
    'src/a/b.rs': 'pub fn deep() { super::super::local(); }\n',
    'src/main.rs': 'use crate::a::b;\nfn main() { b::deep(); }\n',
  });
  const calls = g.edges('calls').sort();
  assert.deepEqual(calls, [
    'src/a/b.rs#deep -> src/lib.rs#local',
    'src/lib.rs#run -> src/a/b.rs#deep',
    'src/lib.rs#run -> src/lib.rs#local',
    'src/lib.rs#run -> src/net/mod.rs#connect',
    'src/lib.rs#run -> src/util.rs#helper',
    'src/lib.rs#tests.t -> src/lib.rs#local',
    'src/lib.rs#tests.t -> src/lib.rs#tests.inner',
    'src/main.rs#main -> src/a/b.rs#deep',
    'src/util.rs#helper -> src/lib.rs#local',
  ]);
  assert.equal(g.confidence('src/lib.rs#run', 'src/util.rs#helper'), 'EXTRACTED');
  assert.deepEqual(g.edges('expands'), ['src/lib.rs#run -> src/lib.rs#log']);
});

test('Rust: a module named like its crate is the module (use shapes::X in crate shapes), and import cycles end', async () => {
  // Before: `use shapes::Circle` in the root of crate `shapes` went to the crate root (lib.rs),
  // whose own `use` of Circle resolved through itself until the stack overflowed.
  const g = await linkSources({
    'src/lib.rs': 'pub mod shapes;\nmod a;\nmod b;\nuse shapes::Circle;\n\npub fn unit() -> Circle { Circle::new(1.0) }\n',
    'src/shapes.rs': 'pub struct Circle { r: f64 }\nimpl Circle { pub fn new(r: f64) -> Self { Circle { r } } }\n',
    'src/a.rs': 'pub use crate::b::Loop;\npub fn f() { Loop::go(); }\n',
    'src/b.rs': 'pub use crate::a::Loop;\n',
  }, { 'Cargo.toml': '[package]\nname = "shapes"\nversion = "0.1.0"\n' });
  assert.ok(g.edges('calls').includes('src/lib.rs#unit -> src/shapes.rs#Circle.new'), g.edges('calls').join('\n'));
  assert.ok(!g.edges('calls').some((e) => e.startsWith('src/a.rs#f ->')));
});
