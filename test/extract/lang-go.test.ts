import assert from 'node:assert/strict';
import { test } from 'node:test';
import { linkSources } from './lang-harness.ts';

const GO_MOD = { 'go.mod': 'module example.com/app\n\ngo 1.22\n' };

test('Go: structs, interfaces, receiver methods, exported by case', async () => {
  const g = await linkSources({
    'server/server.go': 'package server\n\n// Server serves.\ntype Server struct {\n\tBase\n\tport int\n}\n\ntype Handler interface {\n\tServe() error\n}\n\nfunc (s *Server) Start() error { return nil }\nfunc (s *Server) stop() {}\n',
  }, GO_MOD);
  const node = (id: string) => g.nodes.find((n) => n.id === id);
  assert.equal(node('server/server.go#Server')?.kind, 'struct');
  assert.equal(node('server/server.go#Server')?.doc, 'Server serves.');
  assert.equal(node('server/server.go#Handler')?.kind, 'interface');
  assert.equal(node('server/server.go#Server.Start')?.kind, 'method');
  assert.equal(node('server/server.go#Server.Start')?.visibility, 'public');
  assert.equal(node('server/server.go#Server.stop')?.visibility, 'package');
  assert.equal(node('package:server')?.kind, 'package');
  assert.ok(g.edges('contains').includes('package:server -> server/server.go'));
});

test('Go: package qualifiers, same-package calls, receivers across files, typed locals', async () => {
  const g = await linkSources({
    'router/router.go': 'package router\n\ntype Router struct{}\n\nfunc New() *Router { return &Router{} }\nfunc (r *Router) Add(p string) {}\n',
    'router/extra.go': 'package router\n\nfunc (r *Router) Match() { r.Add("x"); helper() }\n',
    'router/helper.go': 'package router\n\nfunc helper() {}\n',
    'main.go': 'package main\n\nimport (\n\trt "example.com/app/router"\n)\n\ntype App struct {\n\tr *rt.Router\n}\n\nfunc (a *App) Run() {\n\ta.r.Match()\n}\n\nfunc main() {\n\tx := rt.New()\n\tx.Add("/")\n\tvar y rt.Router\n\ty.Match()\n\tapp := &App{}\n\tapp.Run()\n}\n',
  }, GO_MOD);
  const calls = g.edges('calls');
  for (const e of [
    'main.go#main -> router/router.go#New', 'main.go#main -> router/router.go#Router.Add',
    'main.go#main -> router/extra.go#Router.Match', 'main.go#main -> main.go#App.Run',
    'main.go#App.Run -> router/extra.go#Router.Match', 'router/extra.go#Router.Match -> router/router.go#Router.Add',
    'router/extra.go#Router.Match -> router/helper.go#helper',
  ]) assert.ok(calls.includes(e), e);
});
