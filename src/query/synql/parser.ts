import type { AggFn, CmpOp, Expr, NodePattern, OrderItem, PathPattern, Query, RelPattern, ReturnItem, Value } from './ast.ts';
import { SynqlError } from './errors.ts';
import { lex, type Token } from './lexer.ts';
import { checkQuery } from './check.ts';

const AGGREGATES: ReadonlySet<string> = new Set(['count', 'min', 'max', 'avg', 'sum', 'collect']);

/**
 * Parse (and check) a SYNQL query: a hand-written recursive-descent parser over lex()'s tokens, one
 * method per grammar rule of docs/synql.md. Errors are SynqlError with the offset of the token that
 * did not fit and what would have.
 */
export function parseSynql(source: string): Query {
  const query = new Parser(source).query();
  checkQuery(query);
  return query;
}

class Parser {
  private readonly tokens: Token[];
  private i = 0;
  private anon = 0;

  constructor(private readonly source: string) {
    this.tokens = lex(source);
  }

  private get tok(): Token {
    return this.tokens[this.i]!;
  }

  private peek(k = 1): Token {
    return this.tokens[Math.min(this.i + k, this.tokens.length - 1)]!;
  }

  private isKw(word: string, t = this.tok): boolean {
    return t.type === 'keyword' && t.value === word;
  }

  private isP(p: string, t = this.tok): boolean {
    return t.type === 'punct' && t.value === p;
  }

  private fail(expected: string, t = this.tok): never {
    const found = t.type === 'eof' ? 'the end of the query' : t.type === 'string' ? `the string '${t.value}'` : `'${this.source.slice(t.offset, t.offset + t.length)}'`;
    throw new SynqlError(`expected ${expected} but found ${found}`, t.offset, this.source);
  }

  private kw(word: string, expected = word): Token {
    if (!this.isKw(word)) this.fail(expected);
    return this.tokens[this.i++]!;
  }

  private punct(p: string, expected = `'${p}'`): Token {
    if (!this.isP(p)) this.fail(expected);
    return this.tokens[this.i++]!;
  }

  /** A kind, relation type, property or column name: keywords allowed (the relation `contains`). */
  private name(expected: string): Token {
    const t = this.tok;
    if (t.type !== 'ident' && t.type !== 'keyword') this.fail(expected);
    this.i++;
    return t.type === 'keyword' ? { ...t, value: this.source.slice(t.offset, t.offset + t.length) } : t;
  }

  query(): Query {
    this.kw('MATCH', 'MATCH at the start of the query');
    const patterns = [this.path()];
    while (this.isP(',')) {
      this.i++;
      patterns.push(this.path());
    }
    let where: Expr | undefined;
    if (this.isKw('WHERE')) {
      this.i++;
      where = this.expr();
    }
    this.kw('RETURN', where ? "RETURN (or AND/OR to continue the WHERE)" : "WHERE, RETURN or ',' and another pattern");
    let distinct = false;
    if (this.isKw('DISTINCT')) {
      this.i++;
      distinct = true;
    }
    const items = [this.returnItem()];
    while (this.isP(',')) {
      this.i++;
      items.push(this.returnItem());
    }
    const order: OrderItem[] = [];
    if (this.isKw('ORDER')) {
      this.i++;
      this.kw('BY', 'BY after ORDER');
      do {
        if (order.length) this.i++;
        const expr = this.expr();
        let desc = false;
        if (this.isKw('DESC') || this.isKw('DESCENDING')) {
          desc = true;
          this.i++;
        } else if (this.isKw('ASC') || this.isKw('ASCENDING')) this.i++;
        order.push({ expr, desc });
      } while (this.isP(','));
    }
    let skip = 0;
    if (this.isKw('SKIP')) {
      this.i++;
      skip = this.count('a row count after SKIP');
    }
    let limit: number | undefined;
    if (this.isKw('LIMIT')) {
      this.i++;
      limit = this.count('a row count after LIMIT');
    }
    if (this.tok.type !== 'eof') this.fail(limit !== undefined ? 'the end of the query' : skip ? 'LIMIT or the end of the query' : 'ORDER BY, SKIP, LIMIT, a comma or the end of the query');
    return { source: this.source, patterns, where, distinct, items, order, skip, limit };
  }

  private count(expected: string): number {
    const t = this.tok;
    if (t.type !== 'number' || t.value.includes('.')) this.fail(expected);
    this.i++;
    return Number(t.value);
  }

  private path(): PathPattern {
    const nodes = [this.nodePattern()];
    const rels: RelPattern[] = [];
    while (this.isP('-') || (this.isP('<') && this.isP('-', this.peek()))) {
      rels.push(this.relPattern());
      nodes.push(this.nodePattern());
    }
    return { nodes, rels };
  }

  private nodePattern(): NodePattern {
    const open = this.punct('(', "'(' to start a node pattern");
    let v: string | undefined;
    if (this.tok.type === 'ident') v = this.tokens[this.i++]!.value;
    const kinds: string[] = [];
    const kindPos: number[] = [];
    if (this.isP(':')) {
      this.i++;
      do {
        if (kinds.length) this.i++;
        const k = this.name('a kind after \':\', e.g. class or function');
        kinds.push(k.value);
        kindPos.push(k.offset);
      } while (this.isP('|'));
    }
    const props: NodePattern['props'] = [];
    if (this.isP('{')) {
      this.i++;
      do {
        if (props.length) this.i++;
        const p = this.name("a property name inside '{...}'");
        this.punct(':', "':' after the property name");
        props.push({ prop: p.value, value: this.literal(), pos: p.offset });
      } while (this.isP(','));
      this.punct('}', "',' or '}' to close the properties");
    }
    this.punct(')', v === undefined && !kinds.length ? "a variable, ':kind' or ')'" : kinds.length ? "'|', '{' or ')'" : "':kind', '{' or ')'");
    const anonymous = v === undefined;
    return { v: v ?? `#${this.anon++}`, anonymous, kinds, kindPos, props, pos: open.offset };
  }

  private relPattern(): RelPattern {
    const pos = this.tok.offset;
    let left = false;
    if (this.isP('<')) {
      left = true;
      this.i++;
    }
    this.punct('-');
    const types: string[] = [];
    let min = 1;
    let max = 1;
    let variable = false;
    const typePos: number[] = [];
    if (this.isP('[')) {
      this.i++;
      if (this.tok.type === 'ident') throw new SynqlError(`relation variables are not supported ('${this.tok.value}'): a relation pattern matches node pairs; write [:type]`, this.tok.offset, this.source);
      if (this.isP(':')) {
        this.i++;
        do {
          if (types.length) this.i++;
          const t = this.name("a relation type after ':', e.g. calls");
          types.push(t.value);
          typePos.push(t.offset);
        } while (this.isP('|'));
      }
      if (this.isP('*')) {
        const star = this.tokens[this.i++]!;
        variable = true;
        min = 1;
        max = Infinity;
        if (this.tok.type === 'number') {
          min = this.count('a hop count');
          max = min;
        }
        if (this.isP('..')) {
          this.i++;
          max = this.tok.type === 'number' ? this.count('a hop count') : Infinity;
        }
        if (min > max) throw new SynqlError(`empty hop range *${min}..${max}: the lower bound must not exceed the upper`, star.offset, this.source);
      }
      this.punct(']', types.length ? "'|', '*' or ']'" : "':type', '*' or ']'");
    }
    this.punct('-', "'-' to continue the relation");
    let right = false;
    if (this.isP('>')) {
      right = true;
      this.i++;
    }
    if (left && right) throw new SynqlError('a relation cannot point both ways (<-...->): drop one arrow head, or both for either direction', pos, this.source);
    const dir = left ? 'in' : right ? 'out' : 'both';
    return { types, typePos, dir, min, max, variable, pos };
  }

  private returnItem(): ReturnItem {
    const start = this.tok.offset;
    const expr = this.expr();
    const end = this.tokens[this.i - 1]!;
    let name = this.source.slice(start, end.offset + end.length).replace(/\s+/g, ' ');
    if (this.isKw('AS')) {
      this.i++;
      name = this.name('a column name after AS').value;
    }
    return { expr, name };
  }

  // expr := xor (OR xor)* ; xor := and (XOR and)* ; and := not (AND not)* ; not := NOT not | predicate
  expr(): Expr {
    let l = this.xor();
    while (this.isKw('OR')) {
      const pos = this.tokens[this.i++]!.offset;
      l = { t: 'or', l, r: this.xor(), pos };
    }
    return l;
  }

  private xor(): Expr {
    let l = this.and();
    while (this.isKw('XOR')) {
      const pos = this.tokens[this.i++]!.offset;
      l = { t: 'xor', l, r: this.and(), pos };
    }
    return l;
  }

  private and(): Expr {
    let l = this.not();
    while (this.isKw('AND')) {
      const pos = this.tokens[this.i++]!.offset;
      l = { t: 'and', l, r: this.not(), pos };
    }
    return l;
  }

  private not(): Expr {
    if (this.isKw('NOT')) {
      const pos = this.tokens[this.i++]!.offset;
      return { t: 'not', e: this.not(), pos };
    }
    return this.predicate();
  }

  private predicate(): Expr {
    const l = this.operand();
    const t = this.tok;
    const pos = t.offset;
    if (t.type === 'punct' && ['=', '<>', '!=', '<', '<=', '>', '>=', '=~'].includes(t.value)) {
      this.i++;
      const op = (t.value === '!=' ? '<>' : t.value) as CmpOp;
      return { t: 'cmp', op, l, r: this.operand(), pos };
    }
    if (this.isKw('IN')) {
      this.i++;
      if (!this.isP('[')) this.fail("a list after IN, e.g. ['a', 'b']");
      return { t: 'cmp', op: 'IN', l, r: this.operand(), pos };
    }
    if (this.isKw('STARTS') || this.isKw('ENDS')) {
      const op = this.tokens[this.i++]!.value === 'STARTS' ? 'STARTS WITH' : 'ENDS WITH';
      this.kw('WITH', `WITH after ${op.split(' ')[0]}`);
      return { t: 'cmp', op, l, r: this.operand(), pos };
    }
    if (this.isKw('CONTAINS')) {
      this.i++;
      return { t: 'cmp', op: 'CONTAINS', l, r: this.operand(), pos };
    }
    if (this.isKw('IS')) {
      this.i++;
      let negate = false;
      if (this.isKw('NOT')) {
        this.i++;
        negate = true;
      }
      this.kw('NULL', negate ? 'NULL after IS NOT' : 'NULL or NOT NULL after IS');
      return { t: 'isnull', e: l, negate, pos };
    }
    return l;
  }

  private operand(): Expr {
    const t = this.tok;
    if (this.isP('(')) {
      this.i++;
      const e = this.expr();
      this.punct(')', "')' to close the parenthesis (or AND/OR to continue)");
      return e;
    }
    if (this.isP('[')) {
      this.i++;
      const items: Expr[] = [];
      if (!this.isP(']')) {
        do {
          if (items.length) this.i++;
          items.push(this.operand());
        } while (this.isP(','));
      }
      this.punct(']', "',' or ']' to close the list");
      return { t: 'list', items, pos: t.offset };
    }
    if (t.type === 'ident' && this.isP('(', this.peek())) {
      const fn = t.value.toLowerCase();
      if (!AGGREGATES.has(fn)) throw new SynqlError(`unknown function '${t.value}': the functions are ${[...AGGREGATES].join(', ')}`, t.offset, this.source);
      this.i += 2;
      let distinct = false;
      if (this.isKw('DISTINCT')) {
        this.i++;
        distinct = true;
      }
      let arg: Expr | null = null;
      if (this.isP('*')) {
        if (fn !== 'count') this.fail(`an expression inside ${fn}(...) (only count takes *)`);
        this.i++;
      } else arg = this.expr();
      this.punct(')', `')' to close ${fn}(`);
      return { t: 'agg', fn: fn as AggFn, distinct, arg, pos: t.offset };
    }
    if (t.type === 'ident') {
      this.i++;
      if (this.isP('.')) {
        this.i++;
        const p = this.name(`a property name after '${t.value}.'`);
        return { t: 'prop', v: t.value, prop: p.value, pos: p.offset };
      }
      return { t: 'var', v: t.value, pos: t.offset };
    }
    return { t: 'lit', value: this.literal(), pos: t.offset };
  }

  private literal(): Value {
    const t = this.tok;
    if (t.type === 'string') {
      this.i++;
      return t.value;
    }
    if (t.type === 'number') {
      this.i++;
      return Number(t.value);
    }
    if (this.isP('-') && this.peek().type === 'number') {
      this.i++;
      return -Number(this.tokens[this.i++]!.value);
    }
    if (this.isKw('TRUE') || this.isKw('FALSE')) {
      this.i++;
      return t.value === 'TRUE';
    }
    if (this.isKw('NULL')) {
      this.i++;
      return null;
    }
    if (this.isP('[')) {
      this.i++;
      const items: Value[] = [];
      if (!this.isP(']')) {
        do {
          if (items.length) this.i++;
          items.push(this.literal());
        } while (this.isP(','));
      }
      this.punct(']', "',' or ']' to close the list");
      return items;
    }
    return this.fail('a value (a property like n.loc, a string, a number, true, false, null or a list)');
  }
}
