/**
 * Surgical edits of JSON text: a parser that keeps the offsets of every value, and insertions that
 * touch nothing but the bytes they add, so a user's formatting, key order and number spellings
 * survive and an uninstall can remove exactly what an install added. `//` and block comments are
 * read as whitespace (some editors allow them in settings files).
 */

export interface JsonNode {
  kind: 'object' | 'array' | 'string' | 'number' | 'literal';
  start: number;
  /** Offset just past the value. */
  end: number;
  members?: JsonMember[];
  elements?: JsonNode[];
  /** Decoded value for strings. */
  value?: string;
}

export interface JsonMember {
  key: string;
  keyStart: number;
  value: JsonNode;
}

class Parser {
  private i = 0;
  constructor(private readonly text: string) {}

  fail(what: string): never {
    const before = this.text.slice(0, this.i);
    const line = before.split('\n').length;
    throw new SyntaxError(`Cannot parse JSON: ${what} at line ${line}, column ${this.i - before.lastIndexOf('\n')}`);
  }

  ws(): void {
    const t = this.text;
    for (;;) {
      const c = t[this.i];
      if (c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\ufeff') this.i++;
      else if (c === '/' && t[this.i + 1] === '/') {
        while (this.i < t.length && t[this.i] !== '\n') this.i++;
      } else if (c === '/' && t[this.i + 1] === '*') {
        const close = t.indexOf('*/', this.i + 2);
        if (close < 0) this.fail('unterminated comment');
        this.i = close + 2;
      } else return;
    }
  }

  value(): JsonNode {
    this.ws();
    const t = this.text;
    const start = this.i;
    const c = t[this.i];
    if (c === '{') {
      this.i++;
      const members: JsonMember[] = [];
      this.ws();
      if (t[this.i] === '}') {
        this.i++;
        return { kind: 'object', start, end: this.i, members };
      }
      for (;;) {
        this.ws();
        if (t[this.i] !== '"') this.fail('expected a key');
        const keyStart = this.i;
        const key = this.string().value!;
        this.ws();
        if (t[this.i] !== ':') this.fail('expected ":"');
        this.i++;
        members.push({ key, keyStart, value: this.value() });
        this.ws();
        if (t[this.i] === ',') {
          this.i++;
          continue;
        }
        if (t[this.i] === '}') {
          this.i++;
          return { kind: 'object', start, end: this.i, members };
        }
        this.fail('expected "," or "}"');
      }
    }
    if (c === '[') {
      this.i++;
      const elements: JsonNode[] = [];
      this.ws();
      if (t[this.i] === ']') {
        this.i++;
        return { kind: 'array', start, end: this.i, elements };
      }
      for (;;) {
        elements.push(this.value());
        this.ws();
        if (t[this.i] === ',') {
          this.i++;
          continue;
        }
        if (t[this.i] === ']') {
          this.i++;
          return { kind: 'array', start, end: this.i, elements };
        }
        this.fail('expected "," or "]"');
      }
    }
    if (c === '"') return this.string();
    const m = /^(?:-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)/.exec(t.slice(this.i, this.i + 64));
    if (!m) this.fail('unexpected character');
    this.i += m[0].length;
    return { kind: /^[-\d]/.test(m[0]) ? 'number' : 'literal', start, end: this.i };
  }

  string(): JsonNode {
    const start = this.i;
    const t = this.text;
    this.i++;
    while (this.i < t.length && t[this.i] !== '"') this.i += t[this.i] === '\\' ? 2 : 1;
    if (this.i >= t.length) this.fail('unterminated string');
    this.i++;
    return { kind: 'string', start, end: this.i, value: JSON.parse(t.slice(start, this.i)) as string };
  }

  document(): JsonNode {
    const root = this.value();
    this.ws();
    if (this.i !== this.text.length) this.fail('unexpected text after the document');
    return root;
  }
}

/** Parses `text` keeping offsets. Throws SyntaxError with a line and column. */
export function parseJsonText(text: string): JsonNode {
  return new Parser(text).document();
}

/** The member `key` of an object node, if any. */
export function member(node: JsonNode | undefined, key: string): JsonMember | undefined {
  return node?.kind === 'object' ? node.members!.find((m) => m.key === key) : undefined;
}

function lineIndent(text: string, offset: number): string {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(lineStart))![0];
}

/** The indentation unit the document uses (first indented line), default two spaces. */
export function indentUnit(text: string): string {
  const m = /\n([ \t]+)\S/.exec(text);
  return m ? m[1]!.startsWith('\t') ? '\t' : m[1]!.length >= 4 && m[1]!.length % 4 === 0 ? '    ' : '  ' : '  ';
}

/** `value` as JSON indented for a position whose line starts with `indent`. */
function render(value: unknown, indent: string, unit: string, multiline: boolean): string {
  const json = JSON.stringify(value, null, multiline ? unit : undefined);
  return multiline ? json.replace(/\n/g, `\n${indent}`) : json;
}

export interface Insertion {
  /** Offset where `text` goes. */
  at: number;
  text: string;
}

/**
 * The insertion that appends `"key": value` to `obj`, matching the object's layout (one member per
 * line, or inline).
 */
export function appendMember(text: string, obj: JsonNode, key: string, value: unknown): Insertion {
  const unit = indentUnit(text);
  const members = obj.members!;
  const objIndent = lineIndent(text, obj.start);
  if (members.length > 0) {
    const last = members[members.length - 1]!;
    const multiline = text.slice(obj.start, members[0]!.keyStart).includes('\n');
    const indent = multiline ? lineIndent(text, last.keyStart) : '';
    const entry = `${JSON.stringify(key)}: ${render(value, indent, unit, multiline)}`;
    return { at: last.value.end, text: multiline ? `,\n${indent}${entry}` : `, ${entry}` };
  }
  const indent = objIndent + unit;
  const entry = `${JSON.stringify(key)}: ${render(value, indent, unit, true)}`;
  const inner = text.slice(obj.start + 1, obj.end - 1);
  return { at: obj.start + 1, text: inner.includes('\n') ? `\n${indent}${entry}` : `\n${indent}${entry}\n${objIndent}` };
}

/** The insertion that appends `value` to `arr`, matching its layout. */
export function appendElement(text: string, arr: JsonNode, value: unknown): Insertion {
  const unit = indentUnit(text);
  const elements = arr.elements!;
  const arrIndent = lineIndent(text, arr.start);
  if (elements.length > 0) {
    const last = elements[elements.length - 1]!;
    const multiline = text.slice(arr.start, elements[0]!.start).includes('\n');
    const indent = multiline ? lineIndent(text, last.start) : '';
    return { at: last.end, text: multiline ? `,\n${indent}${render(value, indent, unit, true)}` : `, ${render(value, indent, unit, false)}` };
  }
  const indent = arrIndent + unit;
  const inner = text.slice(arr.start + 1, arr.end - 1);
  const rendered = render(value, indent, unit, true);
  return { at: arr.start + 1, text: inner.includes('\n') ? `\n${indent}${rendered}` : `\n${indent}${rendered}\n${arrIndent}` };
}

/** Applies an insertion. */
export function applyInsertion(text: string, ins: Insertion): string {
  return text.slice(0, ins.at) + ins.text + text.slice(ins.at);
}

/**
 * Removes a member or element span structurally (used when an inserted text was edited since, so
 * it cannot be removed verbatim): with the separator before it, else the one after it.
 */
export function removeSpan(text: string, items: Array<{ start: number; end: number }>, index: number, container: JsonNode): string {
  const item = items[index]!;
  if (index > 0) return text.slice(0, items[index - 1]!.end) + text.slice(item.end);
  if (items.length > 1) return text.slice(0, item.start) + text.slice(items[1]!.start);
  return text.slice(0, container.start + 1) + text.slice(container.end - 1).replace(/^\s+(?=[}\]])/, '');
}

/** Member spans of an object, for removeSpan. */
export function memberSpans(obj: JsonNode): Array<{ start: number; end: number }> {
  return obj.members!.map((m) => ({ start: m.keyStart, end: m.value.end }));
}
