/**
 * The identity pipeline's per-shape plan: entries of one request usually share their keys and their
 * nesting, so the flattened keys, their sorted (column) order and the hint/duplicate checks are
 * worked out once per shape, and each entry's leaves are then read straight out of the nested
 * object instead of being copied into a flat one first.
 */
import { isHintKey } from "./hints.ts";
import { type Entry, isObject, toCompactJson } from "./value.ts";

/** Marks the start and end of a nested object that is flattened (keys are always strings). */
const OPEN = 0, CLOSE = 1;
type Token = string | typeof OPEN | typeof CLOSE;

/** One flattened key: where its value lives in the nested entry, and its dotted name. */
export interface Leaf {
  path: string[];
  name: string;
}

interface Plan {
  tokens: Token[];
  /** Leaves in column (sorted key) order, without skipped keys; null when the shape has hint keys or duplicates. */
  leaves: Leaf[] | null;
}

/** Caches the plan of the last entry shape seen. */
export class ShapePlans {
  private last: Plan | null = null;

  constructor(private readonly maxLevels: number, private readonly skip: ReadonlySet<string>) {}

  /**
   * The leaves of `entry` in column order, or null when the entry needs the general path (a hint
   * key, or two keys that flatten to the same name, where the later value must win).
   */
  leavesOf(entry: Entry): Leaf[] | null {
    const last = this.last;
    if (last && match(entry, last.tokens, 0, 1, this.maxLevels) === last.tokens.length) return last.leaves;
    const tokens: Token[] = [], found: Leaf[] = [];
    build(entry, tokens, found, [], "", 1, this.maxLevels);
    this.last = { tokens, leaves: plan(found, this.skip) };
    return this.last.leaves;
  }
}

/** The position after `src`'s tokens when they match `tokens` from `pos`, else -1. */
function match(src: Entry, tokens: Token[], pos: number, level: number, maxLevels: number): number {
  for (const k in src) {
    if (tokens[pos++] !== k) return -1;
    const v = src[k];
    if (level < maxLevels && isObject(v)) {
      if (tokens[pos++] !== OPEN) return -1;
      pos = match(v, tokens, pos, level + 1, maxLevels);
      if (pos < 0 || tokens[pos++] !== CLOSE) return -1;
    } else if (tokens[pos] === OPEN) return -1;
  }
  return pos;
}

function build(
  src: Entry,
  tokens: Token[],
  leaves: Leaf[],
  path: string[],
  prefix: string,
  level: number,
  maxLevels: number,
): void {
  for (const k in src) {
    tokens.push(k);
    const v = src[k];
    const name = prefix ? prefix + "." + k : k;
    if (level < maxLevels && isObject(v)) {
      tokens.push(OPEN);
      build(v, tokens, leaves, [...path, k], name, level + 1, maxLevels);
      tokens.push(CLOSE);
    } else leaves.push({ path: [...path, k], name });
  }
}

function plan(found: Leaf[], skip: ReadonlySet<string>): Leaf[] | null {
  const sorted = found.slice().sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (let i = 0; i < sorted.length; i++) {
    if (isHintKey(sorted[i].name) || (i > 0 && sorted[i].name === sorted[i - 1].name)) return null;
  }
  return sorted.filter((l) => !skip.has(l.name));
}

/** The flattened value of `leaf` in `entry`: arrays and too-deep objects as compact JSON. */
export function leafValue(entry: Entry, leaf: Leaf): unknown {
  const path = leaf.path;
  let v: unknown = entry[path[0]];
  for (let i = 1; i < path.length; i++) v = (v as Entry)[path[i]];
  if (Array.isArray(v) || isObject(v)) return toCompactJson(v, false);
  return v;
}
