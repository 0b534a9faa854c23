import assert from 'node:assert/strict';
import { test } from 'node:test';
import { linkSources } from './lang-harness.ts';

test('C#: namespaces, classes, constructors, using, this/base calls, typed locals', async () => {
  const g = await linkSources({
    'Lib/Repo.cs': 'namespace Acme.Lib {\n  public class Repo {\n    public Repo() {}\n    public void Save() {}\n  }\n}\n',
    'App/Service.cs': 'using Acme.Lib;\n\nnamespace Acme.App {\n  /// <summary>Runs.</summary>\n  public class Service : BaseService {\n    private Repo repo;\n    public void Run() { var r = new Repo(); r.Save(); this.Helper(); Helper(); }\n    void Helper() {}\n  }\n  public class BaseService {}\n}\n',
  });
  const node = (id: string) => g.nodes.find((n) => n.id === id);
  assert.equal(node('Lib/Repo.cs#Acme.Lib')?.kind, 'namespace');
  assert.equal(node('Lib/Repo.cs#Acme.Lib.Repo.Repo')?.kind, 'constructor');
  assert.equal(node('App/Service.cs#Acme.App.Service.Helper')?.visibility, 'private');
  const calls = g.edges('calls');
  for (const e of [
    'App/Service.cs#Acme.App.Service.Run -> Lib/Repo.cs#Acme.Lib.Repo.Repo',
    'App/Service.cs#Acme.App.Service.Run -> Lib/Repo.cs#Acme.Lib.Repo.Save',
    'App/Service.cs#Acme.App.Service.Run -> App/Service.cs#Acme.App.Service.Helper',
  ]) assert.ok(calls.includes(e), e);
  assert.ok(g.edges('inherits').includes('App/Service.cs#Acme.App.Service -> App/Service.cs#Acme.App.BaseService'));
});
