/**
 * query_graph answers ranked for the question (#17.4): implementation before tests, examples and
 * declarations; the forms of a concept meet (compose/composition); acronyms and truncations a
 * question spells out reach the names that use them; overloads take one slot.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Core } from '../../src/core/index.ts';
import type { GraphDocument, GraphLink, GraphNode } from '../../src/graph/model.ts';
import { coreTraversal } from '../../src/query/core-traversal.ts';
import { QueryEngine } from '../../src/query/engine.ts';
import { spelledAcronyms, stem, tokenVariants } from '../../src/query/tokens.ts';

const traversal = coreTraversal(await Core.load());

function graph(defs: Array<[id: string, kind: GraphNode['kind'], lines?: number, extra?: Partial<GraphNode>]>, edges: Array<[string, string, string]> = []): QueryEngine {
  const nodes: GraphNode[] = defs.map(([id, kind, lines = 20, extra = {}]) => {
    const file = id.split('#')[0]!;
    const label = id.includes('#') ? id.slice(id.indexOf('#') + 1).replace(/~\d+$/, '') : file.split('/').pop()!;
    return { id, label, kind, file_type: 'code', source_file: file, source_location: 'L1', span: { start_line: 1, start_col: 0, end_line: lines, end_col: 1 }, ...extra };
  });
  const links: GraphLink[] = edges.map(([source, target, relation]) => ({ source, target, relation, confidence: 'EXTRACTED', confidence_score: 1, source_file: source.split('#')[0]!, source_location: 'L1' }));
  const doc: GraphDocument = { directed: true, multigraph: true, graph: {}, nodes, links, hyperedges: [], built_at_commit: null };
  return new QueryEngine(doc, traversal);
}

const top = (e: QueryEngine, question: string, k = 5): string[] => e.rank(question).nodes.slice(0, k).map((h) => e.ix.node(h.node).id);

test('the forms of one concept share a stem', () => {
  const same = [
    ['compose', 'composition', 'composed'], ['verify', 'verified', 'verification', 'verifier'], ['parse', 'parsed', 'parser', 'parsing'],
    ['validate', 'validated', 'validation', 'validator'], ['execute', 'execution', 'executor'], ['route', 'routes', 'router', 'routing'],
    ['complete', 'completion', 'completions'], ['emit', 'emitted', 'emitter'], ['cookie', 'cookies'], ['query', 'queries'],
  ];
  for (const forms of same) assert.equal(new Set(forms.map(stem)).size, 1, `${forms.join('/')} -> ${forms.map(stem).join('/')}`);
  assert.notEqual(stem('class'), stem('cla'));
  assert.equal(stem('status'), 'status');
  assert.deepEqual(tokenVariants(stem('completion')), ['comp']);
  assert.deepEqual(tokenVariants('cfg'), [stem('configure')]);
  assert.ok(spelledAcronyms('how does server-sent events streaming work').some((a) => a.acronym === 'sse'));
});

test('implementation before the tests that exercise it, unless the question asks about tests', () => {
  const e = graph([
    ['src/compose.ts#compose', 'function', 60],
    ...[1, 2, 3, 4, 5, 6].map((i) => [`src/types.test.ts#middleware${i === 1 ? '' : `~${i}`}`, 'function', 10] as [string, GraphNode['kind'], number]),
    ['src/app.test.ts#testMiddlewareComposition', 'function', 10],
    ['src/middleware/logger.ts#logger', 'function', 30],
  ]);
  assert.equal(top(e, 'how does middleware composition work')[0], 'src/compose.ts#compose');
  assert.equal(top(e, 'which tests cover middleware composition')[0], 'src/app.test.ts#testMiddlewareComposition');
});

test('overloads of one name in one file take one slot of the answer', () => {
  const e = graph([
    ['src/request.ts#parseBody', 'method', 10], ['src/request.ts#parseBody~2', 'method', 30], ['src/request.ts#parseBody~3', 'method', 60],
    ['src/utils/body.ts#parseBody', 'function', 40],
  ]);
  const ids = top(e, 'how is the body parsed');
  // One slot, named by the first declaration.
  assert.deepEqual(ids.filter((id) => id.startsWith('src/request.ts#parseBody')), ['src/request.ts#parseBody'], ids.join(', '));
  assert.ok(ids.includes('src/utils/body.ts#parseBody'));
});

test('an implementation before an interface or type alias of the same words', () => {
  const e = graph([
    ['src/client/types.ts#ClientRequest', 'type_alias', 40], ['src/client/types.ts#ClientRequestOptions', 'interface', 40],
    ['src/client/client.ts#ClientRequestImpl', 'class', 40],
  ]);
  assert.equal(top(e, 'how does the client request work')[0], 'src/client/client.ts#ClientRequestImpl');
  // A question about the shape asks for the declaration.
  assert.notEqual(top(e, 'what is the type of a client request')[0], 'src/client/client.ts#ClientRequestImpl');
});

test('a spelled-out acronym and truncated words reach the names that use them', () => {
  const e = graph([
    ['src/helper/streaming/sse.ts#streamSSE', 'function', 30], ['src/jsx/server.ts#renderToReadableStream', 'function', 30],
    ['src/router/reg-exp-router/router.ts#RegExpRouter', 'class', 80], ['src/router/linear-router/router.ts#LinearRouter', 'class', 80],
    ['benchmarks/routers/express.ts#expressRouter', 'function', 30],
  ]);
  assert.equal(top(e, 'how does server-sent events streaming work')[0], 'src/helper/streaming/sse.ts#streamSSE');
  assert.equal(top(e, 'how are routes matched with regular expressions')[0], 'src/router/reg-exp-router/router.ts#RegExpRouter');
});

test('a name the question covers word for word before one that holds other words too', () => {
  const e = graph([
    ['src/utils/jwt/types.ts#JwtTokenAudience', 'class', 6], ['src/utils/jwt/types.ts#JwtTokenExpired', 'class', 6],
    ['src/utils/jwt/jwt.ts#verify', 'function', 90],
  ]);
  assert.equal(top(e, 'how is a jwt verified')[0], 'src/utils/jwt/jwt.ts#verify');
});

test('a member whose type names a question word covers that concept', () => {
  const e = graph([
    ['src/a.py#Response.prepare_body', 'method', 40], ['src/models.py#PreparedRequest.prepare_body', 'method', 40],
  ]);
  assert.equal(top(e, 'how is the request body prepared')[0], 'src/models.py#PreparedRequest.prepare_body');
});

test('an error type named after the concept ranks below the code that does the work, unless the question is about errors', () => {
  const sig = (raw: string): Partial<GraphNode> => ({ signature: { params: [], raw } });
  const e = graph(
    [
      ['src/jwt/types.ts#JwtTokenExpired', 'class', 10, sig('export class JwtTokenExpired extends Error')],
      ['src/jwt/types.ts#JwtTokenInvalid', 'class', 10, sig('export class JwtTokenInvalid extends JwtTokenError')],
      ['src/exceptions.py#InvalidProxyToken', 'class', 10, sig('class InvalidProxyToken(InvalidToken)')],
      ['src/exceptions.py#InvalidToken', 'class', 10, sig('class InvalidToken(ValueError)')],
      ['src/jwt/jwt.ts#verify', 'function', 12],
      ['src/proxy.py#read_proxy', 'function', 12],
    ],
    [['src/exceptions.py#InvalidProxyToken', 'src/exceptions.py#InvalidToken', 'inherits']],
  );
  assert.equal(top(e, 'how are jwt tokens verified')[0], 'src/jwt/jwt.ts#verify');
  // An error type two steps from ValueError is one too.
  assert.equal(top(e, 'how is the proxy token read')[0], 'src/proxy.py#read_proxy');
  assert.equal(top(e, 'which errors are raised for an expired jwt token')[0], 'src/jwt/types.ts#JwtTokenExpired');
});

test('a parameter names the concept its function works on', () => {
  const e = graph([
    ['src/utils/file.ts#getPath', 'function', 20, { signature: { params: [{ name: 'file', type: 'string' }], raw: 'getPath = (file: string) =>' } }],
    ['src/utils/url.ts#getPath', 'function', 20, { signature: { params: [{ name: 'request', type: 'Request' }], returns: 'string', raw: 'getPath = (request: Request): string =>' } }],
  ]);
  assert.equal(top(e, 'how is the path of a request extracted')[0], 'src/utils/url.ts#getPath');
});

test('a deprecated symbol ranks below the one in use; an irregular past form meets its verb', () => {
  const e = graph([
    ['zsh.go#Command.MarkZshPositionalArgs', 'method', 20, { doc: 'MarkZshPositionalArgs only worked for zsh. It has therefore\nbeen disabled.' }],
    ['args.go#markPositionalArgs', 'function', 20],
    ['command.go#Command.Find', 'method', 40],
  ]);
  assert.equal(top(e, 'how are positional args marked for zsh')[0], 'args.go#markPositionalArgs');
  assert.equal(stem('found'), stem('find'));
  assert.equal(top(e, 'how is the command found')[0], 'command.go#Command.Find');
});

test('a match that other matches call ranks before one nothing calls', () => {
  const e = graph(
    [
      ['src/d.ts#signMessage', 'function', 63], ['src/a.ts#signPayload', 'function', 10],
      ['src/b.ts#signedCookie', 'function', 20], ['src/c.ts#signedHeader', 'function', 20],
    ],
    [['src/b.ts#signedCookie', 'src/a.ts#signPayload', 'calls'], ['src/c.ts#signedHeader', 'src/a.ts#signPayload', 'calls']],
  );
  // signMessage's longer body alone would put it first.
  const ids = top(e, 'how is it signed', 10);
  assert.ok(ids.indexOf('src/a.ts#signPayload') < ids.indexOf('src/d.ts#signMessage'), ids.join(', '));
});

test('past two nodes of one file, each further one ranks a little lower', () => {
  const e = graph([
    ...['bash', 'zsh', 'fish', 'nu'].map((s) => [`src/shell.go#${s}Completion`, 'function', 30] as [string, GraphNode['kind'], number]),
    ['src/helper.go#completionHelperTable', 'function', 30],
  ]);
  const ids = top(e, 'how does completion work', 3);
  assert.ok(ids.includes('src/helper.go#completionHelperTable'), ids.join(', '));
});

test('an abbreviation weighs as the concept it spells, and Func/Impl are scaffolding', () => {
  const e = graph([
    ...['bash', 'zsh', 'fish', 'nu', 'elvish', 'ion'].map((w) => [`src/${w}.ts#${w}Completion`, 'function', 30] as [string, GraphNode['kind'], number]),
    ['src/comp.ts#shellComp', 'function', 30], ['src/shell.ts#shellCompletion', 'function', 30],
    ['src/help.ts#helpWriter', 'function', 30], ['src/help.ts#HelpFunc', 'function', 30],
  ]);
  // With a frequency of its own, the rarer spelling `comp` outweighed `completion`.
  assert.equal(top(e, 'how does shell completion work')[0], 'src/shell.ts#shellCompletion');
  assert.equal(top(e, 'how is help printed')[0], 'src/help.ts#HelpFunc');
});
