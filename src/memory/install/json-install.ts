import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { mkdirTracked, readText, rmdirEmpty, writeTextAtomic } from './files.ts';
import { applyInsertion, parseJsonText, type Insertion, type JsonNode } from './json-text.ts';
import type { InstallEdit } from './manifest.ts';
import type { InstallReport } from './options.ts';

/**
 * Installs into JSON config files (Claude Code's .mcp.json and settings, Codex's hooks.json) by
 * inserting text only: each piece is one entry the install adds, recorded in the manifest with its
 * exact text so uninstall can take out exactly that, or find the entry by shape if it was edited.
 */
export interface JsonPiece {
  /** The manifest key: `mcp`, or a hook event name. */
  what: string;
  /** How the report names it: `MCP server "synaptic"`, `SessionStart hook`. */
  label: string;
  /** The insertion that adds this piece to `text` (parsed as `root`), or null when it is there. */
  insertion(file: string, text: string, root: JsonNode): Insertion | null;
  /** `text` without this piece, found by its shape. */
  removeByShape(text: string): string;
}

export function parseRoot(file: string, text: string): JsonNode {
  let root: JsonNode;
  try {
    root = parseJsonText(text);
  } catch (err) {
    throw new SyntaxError(`Cannot install: ${file} is not valid JSON (${(err as Error).message.replace('Cannot parse JSON: ', '')}); fix it first, nothing was changed`);
  }
  if (root.kind !== 'object') throw new TypeError(`Cannot install: ${file} does not hold a JSON object; nothing was changed`);
  return root;
}

export function expectKind(file: string, node: JsonNode | undefined, kind: 'object' | 'array', path: string): JsonNode | undefined {
  if (node && node.kind !== kind) throw new TypeError(`Cannot install: "${path}" in ${file} is not an ${kind}; fix it by hand, nothing was changed`);
  return node;
}

/** Throws when `file` exists, holds something, and is not a JSON object (checked before any write). */
export function checkJsonFile(file: string): void {
  const t = readText(file);
  if (t !== null && t.trim() !== '') parseRoot(file, t);
}

/** Adds the missing pieces to `file` (created with its folders when absent); idempotent. */
export function installJsonFile(target: InstallEdit['target'], file: string, pieces: JsonPiece[], report: InstallReport, edits: InstallEdit[]): void {
  const before = readText(file);
  const blank = before === null || before.trim() === '';
  let text = blank ? '{}\n' : before;
  const made: InstallEdit[] = [];
  // One insertion at a time, re-parsing between them, so each offset is right.
  for (const piece of pieces) {
    const insertion = piece.insertion(file, text, parseRoot(file, text));
    if (!insertion) continue;
    text = applyInsertion(text, insertion);
    made.push({ target, file, what: piece.what, inserted: insertion.text, original: blank ? before : null, createdFile: blank, createdDir: null });
  }
  if (made.length === 0) {
    report.unchanged.push({ file, what: pieces.map((p) => p.label).join(' and ') });
    return;
  }
  const createdDir = before === null ? mkdirTracked(dirname(file)) : null;
  for (const m of made) m.createdDir = createdDir;
  writeTextAtomic(file, text);
  edits.push(...made);
  for (const m of made) report.changed.push({ file, what: pieces.find((p) => p.what === m.what)!.label });
}

/** Removes one recorded insertion: verbatim when intact, else the entry it added, found by shape. */
function removeEdit(text: string, edit: InstallEdit, pieces: JsonPiece[]): string {
  const at = text.lastIndexOf(edit.inserted);
  if (at >= 0 && text.indexOf(edit.inserted) === at) return text.slice(0, at) + text.slice(at + edit.inserted.length);
  return pieces.find((p) => p.what === edit.what)?.removeByShape(text) ?? text;
}

/**
 * Removes what installJsonFile added to `file` (the manifest's edits for it, else every piece found
 * by shape); a file the install created is deleted again, or its original text restored. Returns the
 * manifest edits it used up.
 */
export function uninstallJsonFile(target: InstallEdit['target'], file: string, pieces: JsonPiece[], all: InstallEdit[], report: InstallReport): InstallEdit[] {
  const mine = all.filter((e) => e.target === target && e.file === file && pieces.some((p) => p.what === e.what));
  let text = readText(file);
  if (text === null) {
    report.unchanged.push({ file, what: 'nothing to remove (file is gone)' });
    return mine;
  }
  const before = text;
  if (mine.length > 0) for (const e of [...mine].reverse()) text = removeEdit(text, e, pieces);
  else for (const p of pieces) text = p.removeByShape(text);
  const removed = mine.length > 0 ? pieces.filter((p) => mine.some((e) => e.what === p.what)) : pieces;
  const created = mine.find((e) => e.createdFile);
  if (created && text.trim() === '{}') {
    if (created.original === null) {
      rmSync(file, { force: true });
      if (created.createdDir) rmdirEmpty(dirname(file), created.createdDir);
    } else writeTextAtomic(file, created.original);
    report.changed.push({ file, what: created.original === null ? 'removed the file it created' : 'restored the original file' });
  } else if (text !== before) {
    writeTextAtomic(file, text);
    report.changed.push({ file, what: `removed ${removed.map((p) => p.label).join(', ')}` });
  } else report.unchanged.push({ file, what: 'no synaptic entries found' });
  return mine;
}
