import assert from 'node:assert/strict';
import { test } from 'node:test';
import { linkSources } from './lang-harness.ts';

test('Python: definitions, docstrings, constructors, visibility', async () => {
  const g = await linkSources({
    'pkg/models.py': 'class Base:\n    def save(self):\n        pass\n\nclass User(Base):\n    """A user."""\n    def __init__(self, name: str):\n        self.name = name\n    def _hidden(self):\n        pass\n',
  });
  const node = (id: string) => g.nodes.find((n) => n.id === id);
  assert.equal(node('pkg/models.py#User')?.kind, 'class');
  assert.equal(node('pkg/models.py#User')?.doc, 'A user.');
  assert.equal(node('pkg/models.py#User.__init__')?.kind, 'constructor');
  assert.equal(node('pkg/models.py#User._hidden')?.visibility, 'private');
  assert.ok(g.edges('inherits').includes('pkg/models.py#User -> pkg/models.py#Base'));
  assert.ok(g.edges('method').includes('pkg/models.py#User -> pkg/models.py#User.__init__'));
});

test('Python: from-imports, relative imports, module aliases, self and inherited methods', async () => {
  const g = await linkSources({
    'app/__init__.py': 'from .util import helper\n',
    'app/util.py': 'def helper():\n    pass\n\nclass Repo:\n    def find(self):\n        pass\n',
    'app/base.py': 'class Service:\n    def log(self):\n        pass\n',
    'app/svc.py': 'from . import util as u\nfrom .base import Service\nfrom app import helper\nfrom app.util import Repo\n\nclass Users(Service):\n    def __init__(self, repo: Repo):\n        self.repo = repo\n    def run(self):\n        self.log()\n        self.repo.find()\n        u.helper()\n        helper()\n        r = Repo()\n        r.find()\n',
  });
  const calls = g.edges('calls');
  for (const e of [
    'app/svc.py#Users.run -> app/base.py#Service.log', 'app/svc.py#Users.run -> app/util.py#Repo.find',
    'app/svc.py#Users.run -> app/util.py#helper',
  ]) assert.ok(calls.includes(e), e);
  assert.ok(g.edges('instantiates').includes('app/svc.py#Users.run -> app/util.py#Repo'));
  assert.ok(g.edges('imports').includes('app/svc.py -> app/base.py'));
});

test('Python: hazards (eval, getattr with a literal -> dynamic_ref) and tests edges', async () => {
  const g = await linkSources({
    'lib/core.py': 'def compute():\n    pass\n\ndef run(obj):\n    eval("1")\n    getattr(obj, "compute")()\n',
    'tests/test_core.py': 'from lib.core import compute\n\ndef test_compute():\n    compute()\n',
  });
  assert.deepEqual(g.hazards.map((h) => h.kind).sort(), ['eval', 'reflection']);
  assert.ok(g.edges('dynamic_ref').includes('lib/core.py#run -> lib/core.py#compute'));
  assert.ok(g.edges('tests').includes('tests/test_core.py#test_compute -> lib/core.py#compute'));
  assert.equal(g.nodes.find((n) => n.id === 'tests/test_core.py#test_compute')?.is_test, true);
});

test('Python: a `with ... as x` receiver is typed by the context expression (#17.1)', async () => {
  const g = await linkSources({
    'db/session.py': 'class Session:\n    def __enter__(self):\n        return self\n    def __exit__(self, *a):\n        pass\n    def query(self, q):\n        pass\n\nclass Other:\n    def query(self, q):\n        pass\n',
    'db/use.py': 'from db.session import Session\n\ndef load():\n    with Session() as s, open("x") as f:\n        s.query("select 1")\n        f.read()\n',
  });
  const calls = g.edges('calls');
  assert.ok(calls.includes('db/use.py#load -> db/session.py#Session.query'), calls.join('\n'));
  assert.ok(!calls.includes('db/use.py#load -> db/session.py#Other.query'));
});
