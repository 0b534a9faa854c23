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
