import assert from 'node:assert/strict';
import { test } from 'node:test';
import { linkSources } from './lang-harness.ts';

test('C++: classes, out-of-line methods, includes, typed receivers, inheritance', async () => {
  const g = await linkSources({
    'src/shape.h': '#pragma once\nclass Shape {\npublic:\n  virtual double area();\n  void draw();\n};\nclass Circle : public Shape {\npublic:\n  Circle(double r);\n  double area();\n};\n',
    'src/shape.cpp': '#include "shape.h"\n\n// Draws it.\nvoid Shape::draw() { area(); }\ndouble Circle::area() { return 1.0; }\n',
    'src/main.cpp': '#include "shape.h"\n\nstatic int helper() { return 0; }\nint main() {\n  Circle c(2.0);\n  c.draw();\n  Shape* s = new Circle(1.0);\n  s->area();\n  helper();\n  return 0;\n}\n',
  });
  const node = (id: string) => g.nodes.find((n) => n.id === id);
  assert.equal(node('src/shape.h#Shape')?.kind, 'class');
  assert.equal(node('src/shape.cpp#Shape.draw')?.kind, 'method');
  assert.equal(node('src/shape.cpp#Shape.draw')?.doc, 'Draws it.');
  assert.ok(g.edges('imports').includes('src/main.cpp -> src/shape.h'));
  assert.ok(g.edges('inherits').includes('src/shape.h#Circle -> src/shape.h#Shape'));
  const calls = g.edges('calls');
  for (const e of ['src/main.cpp#main -> src/main.cpp#helper', 'src/main.cpp#main -> src/shape.h#Shape.area', 'src/main.cpp#main -> src/shape.h#Shape.draw'])
    assert.ok(calls.includes(e), e);
});

test('C through the C++ grammar: functions and calls', async () => {
  const g = await linkSources({
    'lib/util.c': '/* Adds. */\nint add(int a, int b) { return a + b; }\n',
    'lib/main.c': '#include "util.h"\nint main(void) { return add(1, 2); }\n',
  });
  assert.equal(g.nodes.find((n) => n.id === 'lib/util.c#add')?.language, 'c');
  assert.ok(g.edges('calls').includes('lib/main.c#main -> lib/util.c#add'));
});
