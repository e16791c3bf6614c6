/** Runtime path operations: read, assign (creating containers on the way) and delete. */

import type { Segment } from "./ast.ts";
import type { VrlObject, VrlValue } from "./value.ts";

/** Reads `segs` from `v`; missing or mistyped steps give null. */
export function getIn(v: VrlValue, segs: readonly Segment[]): VrlValue {
  let cur: VrlValue = v;
  for (let i = 0; i < segs.length; i++) {
    const s = segs[i];
    if (typeof s === "string") {
      if (!(cur instanceof Map)) return null;
      const x = cur.get(s);
      if (x === undefined) return null;
      cur = x;
    } else {
      if (!Array.isArray(cur)) return null;
      const idx = s < 0 ? cur.length + s : s;
      if (idx < 0 || idx >= cur.length) return null;
      cur = cur[idx];
    }
  }
  return cur;
}

/** True when every step of `segs` exists in `v`. */
export function hasIn(v: VrlValue, segs: readonly Segment[]): boolean {
  let cur: VrlValue = v;
  for (const s of segs) {
    if (typeof s === "string") {
      if (!(cur instanceof Map) || !cur.has(s)) return false;
      cur = cur.get(s)!;
    } else {
      if (!Array.isArray(cur)) return false;
      const idx = s < 0 ? cur.length + s : s;
      if (idx < 0 || idx >= cur.length) return false;
      cur = cur[idx];
    }
  }
  return true;
}

/** Assigns `value` at `segs` inside `root` and returns the (possibly new) root; non-containers on the way are replaced. */
export function setIn(root: VrlValue, segs: readonly Segment[], value: VrlValue, from = 0): VrlValue {
  if (from >= segs.length) return value;
  const s = segs[from];
  if (typeof s === "string") {
    const obj: VrlObject = root instanceof Map ? root : new Map();
    const child = obj.get(s);
    obj.set(
      s,
      from + 1 === segs.length ? value : setIn(child === undefined ? null : child, segs, value, from + 1),
    );
    return obj;
  }
  const arr: VrlValue[] = Array.isArray(root) ? root : [];
  let idx = s;
  if (idx < 0) {
    idx = arr.length + idx;
    if (idx < 0) {
      arr.unshift(...new Array<VrlValue>(-idx).fill(null));
      idx = 0;
    }
  }
  while (arr.length <= idx) arr.push(null);
  arr[idx] = setIn(arr[idx], segs, value, from + 1);
  return arr;
}

/** Removes the value at `segs` (arrays shift down) and returns it, or null when absent. */
export function removeIn(root: VrlValue, segs: readonly Segment[], compact = false): VrlValue {
  if (segs.length === 0) return null;
  const parents: VrlValue[] = [root];
  let cur: VrlValue = root;
  for (let i = 0; i < segs.length - 1; i++) {
    cur = getIn(cur, [segs[i]]);
    parents.push(cur);
  }
  const last = segs[segs.length - 1];
  let removed: VrlValue = null;
  if (typeof last === "string") {
    if (!(cur instanceof Map) || !cur.has(last)) return null;
    removed = cur.get(last)!;
    cur.delete(last);
  } else {
    if (!Array.isArray(cur)) return null;
    const idx = last < 0 ? cur.length + last : last;
    if (idx < 0 || idx >= cur.length) return null;
    removed = cur.splice(idx, 1)[0];
  }
  if (compact) {
    for (let i = segs.length - 1; i > 0; i--) {
      const c = parents[i];
      const empty = (c instanceof Map && c.size === 0) || (Array.isArray(c) && c.length === 0);
      if (!empty) break;
      removeIn(root, segs.slice(0, i));
    }
  }
  return removed;
}
