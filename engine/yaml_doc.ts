/**
 * Loads a pipeline YAML text into a small typed tree that remembers line numbers, so every compile
 * error can say where it happened. Integer and float scalars are kept apart (`1` vs `1.0`), as
 * yaml-rust does.
 */
import * as YAML from "yaml";
import { compileError } from "./errors.ts";

/** A YAML node with its 1-based line. */
export type YNode =
  | { t: "map"; pairs: YPair[]; line: number }
  | { t: "seq"; items: YNode[]; line: number }
  | { t: "str"; v: string; line: number }
  | { t: "int"; v: number; line: number }
  | { t: "float"; v: number; line: number; src?: string }
  | { t: "bool"; v: boolean; line: number }
  | { t: "null"; line: number };

/** A map entry; keys are nodes too (yaml allows non-string keys). */
export interface YPair {
  key: YNode;
  value: YNode;
}

/**
 * The most nodes a document may expand to. Pipelines have hundreds; aliases copy their anchor's
 * subtree, so a few hundred bytes of nested aliases could otherwise expand to billions and stall
 * the server (yaml-rust expands them the same way, without a bound).
 */
const MAX_NODES = 100_000;

/**
 * How deep flow collections (`[…]`, `{…}`) may nest. The YAML parser spent ~250 ms on 1000 levels, ran
 * out of stack past ~800, and took 1.5–4 s to say so on 100 000 (the server's one thread, held); a
 * pipeline nests a few.
 */
const MAX_FLOW_DEPTH = 127;

/**
 * The line of the first flow collection nested past {@link MAX_FLOW_DEPTH}, or undefined. Only a `[`
 * or `{` where a node may start opens one (a line's start, after `[`, `{`, a flow `,`, `: `, `- `,
 * `? `), so those inside plain scalars (`a[b`) do not count; quoted scalars and comments are skipped.
 */
function tooDeepFlowLine(text: string): number | undefined {
  let depth = 0, line = 1, nodeStart = true, spaced = true;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "\n") {
      line++, nodeStart = true, spaced = true;
      continue;
    }
    if (c === " " || c === "\t" || c === "\r") {
      spaced = true;
      continue;
    }
    const wasSpaced = spaced;
    spaced = false;
    if (c === "#" && wasSpaced) {
      const end = text.indexOf("\n", i);
      if (end < 0) break;
      i = end - 1;
    } else if (nodeStart && (c === "'" || c === '"')) {
      const end = quoteEnd(text, i);
      for (let j = i; j < end; j++) if (text[j] === "\n") line++;
      i = end, nodeStart = false;
    } else if (nodeStart && (c === "[" || c === "{")) {
      if (++depth > MAX_FLOW_DEPTH) return line;
    } else if ((c === "]" || c === "}") && depth > 0) {
      depth--, nodeStart = false;
    } else {
      const indicates = /\s/.test(text[i + 1] ?? " ");
      nodeStart = (c === "," && depth > 0) || (c === ":" && (indicates || depth > 0)) ||
        ((c === "-" || c === "?") && nodeStart && indicates);
    }
  }
  return undefined;
}

/** Index of the quote closing the quoted scalar opened at `open` (`''` and `\"` escape), or the end. */
function quoteEnd(text: string, open: number): number {
  const q = text[open];
  for (let j = open + 1; j < text.length; j++) {
    if (q === '"' && text[j] === "\\") j++;
    else if (text[j] === q) {
      if (q === "'" && text[j + 1] === "'") j++;
      else return j;
    }
  }
  return text.length;
}

/** Parses `text`; exactly one document is required (reference §3.1). */
export function loadYaml(text: string): YNode {
  const deep = tooDeepFlowLine(text);
  if (deep !== undefined) {
    return compileError(`Yaml load error. Flow collections nested more than ${MAX_FLOW_DEPTH} deep`, {
      line: deep,
    });
  }
  const lc = new YAML.LineCounter();
  let docs: YAML.Document.Parsed[] | YAML.EmptyStream;
  try {
    docs = YAML.parseAllDocuments(text, { lineCounter: lc, uniqueKeys: false }) as
      | YAML.Document.Parsed[]
      | YAML.EmptyStream;
  } catch {
    return compileError("Yaml load error.");
  }
  if (!Array.isArray(docs)) return compileError("Yaml parse error.");
  for (const d of docs) {
    if (d.errors.length) {
      const pos = d.errors[0].linePos?.[0];
      return compileError("Yaml load error.", { line: pos?.line });
    }
  }
  if (docs.length !== 1) return compileError("Yaml parse error.");
  const line = (
    n: { range?: [number, number, number] | null },
  ) => (n.range ? lc.linePos(n.range[0]).line : 0);
  let nodes = 0;
  const anchors = new Map<YAML.Alias, unknown>();
  const conv = (n: unknown): YNode => {
    if (++nodes > MAX_NODES) {
      return compileError(`Yaml load error. The document expands to more than ${MAX_NODES} nodes (aliases)`);
    }
    if (n === null || n === undefined) return { t: "null", line: 0 };
    if (YAML.isAlias(n)) {
      // Resolving searches the document: each alias (not each anchor name, which may be redefined)
      // is resolved once, however often its parent is copied.
      let target = anchors.get(n);
      if (target === undefined) anchors.set(n, target = n.resolve(docs[0] as YAML.Document));
      return conv(target);
    }
    if (YAML.isMap(n)) {
      return {
        t: "map",
        line: line(n),
        pairs: n.items.map((p) => ({
          key: conv(p.key),
          value: withLine(conv(p.value), line(p.key as YAML.Node)),
        })),
      };
    }
    if (YAML.isSeq(n)) return { t: "seq", line: line(n), items: n.items.map(conv) };
    if (YAML.isScalar(n)) {
      const l = line(n);
      const v = n.value;
      if (v === null || v === undefined) return { t: "null", line: l };
      if (typeof v === "boolean") return { t: "bool", v, line: l };
      if (typeof v === "number" || typeof v === "bigint") {
        const src = typeof n.source === "string" ? n.source : String(v);
        const isInt = /^[-+]?(?:[0-9]+|0x[0-9a-fA-F]+|0o[0-7]+)$/.test(src);
        return isInt ? { t: "int", v: Number(v), line: l } : { t: "float", v: Number(v), line: l, src };
      }
      if (v instanceof Date) return { t: "str", v: n.source ?? v.toISOString(), line: l };
      return { t: "str", v: String(v), line: l };
    }
    return { t: "null", line: 0 };
  };
  return conv(docs[0].contents);
}

// A null value has no range of its own; give it the line of its key.
function withLine(n: YNode, keyLine: number): YNode {
  if (n.line === 0) n.line = keyLine;
  return n;
}

/** The key of a pair as a string, or undefined when it is not a string scalar. */
export function keyString(p: YPair): string | undefined {
  return p.key.t === "str" ? p.key.v : undefined;
}

/** Looks a string key up in a map node (last occurrence wins, as yaml-rust's map insert does). */
export function mapGet(node: YNode, key: string): YNode | undefined {
  if (node.t !== "map") return undefined;
  let found: YNode | undefined;
  for (const p of node.pairs) if (p.key.t === "str" && p.key.v === key) found = p.value;
  return found;
}

/** A human-readable rendering of a node for messages (`Invalid … <v>`). */
export function nodeText(n: YNode): string {
  switch (n.t) {
    case "str":
      return n.v;
    case "int":
      return String(n.v);
    case "float":
      return n.src ?? String(n.v);
    case "bool":
      return String(n.v);
    case "null":
      return "null";
    case "seq":
      return "[" + n.items.map(nodeText).join(", ") + "]";
    case "map":
      return "{" + n.pairs.map((p) => `${nodeText(p.key)}: ${nodeText(p.value)}`).join(", ") + "}";
  }
}
