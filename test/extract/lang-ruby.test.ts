import assert from 'node:assert/strict';
import { test } from 'node:test';
import { linkSources } from './lang-harness.ts';

test('Ruby: modules, classes, initialize, require_relative, self and implicit-self calls, hazards', async () => {
  const g = await linkSources({
    'lib/base.rb': 'class Base\n  def log(m)\n  end\nend\n',
    'lib/shop/cart.rb': "require_relative '../base'\n\nmodule Shop\n  # A cart.\n  class Cart < Base\n    def initialize\n      @items = []\n    end\n    def add(x)\n      log('add')\n      self.total\n      send(:total)\n    end\n    def total\n    end\n  end\nend\n",
    'app.rb': "require_relative 'lib/shop/cart'\n\ncart = Shop::Cart.new\ncart.add(1)\n",
  });
  const node = (id: string) => g.nodes.find((n) => n.id === id);
  assert.equal(node('lib/shop/cart.rb#Shop')?.kind, 'module');
  assert.equal(node('lib/shop/cart.rb#Shop.Cart')?.doc, 'A cart.');
  assert.equal(node('lib/shop/cart.rb#Shop.Cart.initialize')?.kind, 'constructor');
  assert.ok(g.edges('imports').includes('lib/shop/cart.rb -> lib/base.rb'));
  assert.ok(g.edges('inherits').includes('lib/shop/cart.rb#Shop.Cart -> lib/base.rb#Base'));
  const calls = g.edges('calls');
  for (const e of ['lib/shop/cart.rb#Shop.Cart.add -> lib/base.rb#Base.log', 'lib/shop/cart.rb#Shop.Cart.add -> lib/shop/cart.rb#Shop.Cart.total', 'app.rb -> lib/shop/cart.rb#Shop.Cart.add', 'app.rb -> lib/shop/cart.rb#Shop.Cart.initialize'])
    assert.ok(calls.includes(e), e);
  assert.deepEqual(g.hazards.map((h) => h.kind), ['reflection']);
});
