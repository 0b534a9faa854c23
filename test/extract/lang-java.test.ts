import assert from 'node:assert/strict';
import { test } from 'node:test';
import { linkSources } from './lang-harness.ts';

test('Java: classes, interfaces, constructors, visibility, implements/extends', async () => {
  const g = await linkSources({
    'src/com/acme/Shape.java': 'package com.acme;\n\npublic interface Shape { double area(); }\n',
    'src/com/acme/Base.java': 'package com.acme;\n\npublic abstract class Base { protected void log(String m) {} }\n',
    'src/com/acme/Circle.java': 'package com.acme;\n\n/** A circle. */\npublic class Circle extends Base implements Shape {\n  private double r;\n  public Circle(double r) { this.r = r; }\n  public double area() { log("a"); return helper(); }\n  private double helper() { return this.r; }\n  static Circle unit() { return new Circle(1); }\n}\n',
  });
  const node = (id: string) => g.nodes.find((n) => n.id === id);
  assert.equal(node('src/com/acme/Circle.java#Circle')?.doc, 'A circle.');
  assert.equal(node('src/com/acme/Circle.java#Circle.Circle')?.kind, 'constructor');
  assert.equal(node('src/com/acme/Circle.java#Circle.helper')?.visibility, 'private');
  assert.ok(g.edges('extends').includes('src/com/acme/Circle.java#Circle -> src/com/acme/Base.java#Base'));
  assert.ok(g.edges('implements').includes('src/com/acme/Circle.java#Circle -> src/com/acme/Shape.java#Shape'));
  const calls = g.edges('calls');
  for (const e of [
    'src/com/acme/Circle.java#Circle.area -> src/com/acme/Base.java#Base.log',
    'src/com/acme/Circle.java#Circle.area -> src/com/acme/Circle.java#Circle.helper',
    'src/com/acme/Circle.java#Circle.unit -> src/com/acme/Circle.java#Circle.Circle',
  ]) assert.ok(calls.includes(e), e);
});

test('Java: imports across packages, typed locals and fields, static calls', async () => {
  const g = await linkSources({
    'src/a/Repo.java': 'package a;\n\npublic class Repo { public void save() {} public static Repo open() { return new Repo(); } }\n',
    'src/b/Service.java': 'package b;\n\nimport a.Repo;\n\npublic class Service {\n  private Repo repo;\n  void run() { repo.save(); Repo r = Repo.open(); r.save(); }\n}\n',
  });
  const calls = g.edges('calls');
  for (const e of ['src/b/Service.java#Service.run -> src/a/Repo.java#Repo.save', 'src/b/Service.java#Service.run -> src/a/Repo.java#Repo.open']) assert.ok(calls.includes(e), e);
  assert.ok(g.hazards.length === 0);
});
