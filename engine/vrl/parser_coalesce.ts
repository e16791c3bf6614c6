/** Path coalescing (`.a.(b | c).d`) rewritten into the `if exists(…)` chain it means. */

import type { Expr, PathNode } from "./ast.ts";

/**
 * `.a.(b | c).d` reads `.a.b.d` when `.a` has a field `b`, else `.a.c.d` (the last field is the fallback),
 * as VRL's coalescing segment picks the first field present. Paths without a group are returned as they are.
 */
export function desugarCoalesce(p: PathNode): Expr {
  const c = p.coalesce;
  if (!c) return p;
  const span = { start: p.start, end: p.end };
  const variant = (field: string, upTo = p.segs.length): PathNode => {
    const segs = [...p.segs];
    segs[c.at] = field;
    return { k: "path", root: p.root, segs: segs.slice(0, upTo), ...span };
  };
  let e: Expr = variant(c.fields[c.fields.length - 1]);
  for (let i = c.fields.length - 2; i >= 0; i--) {
    const probe = variant(c.fields[i], c.at + 1);
    const exists: Expr = {
      k: "call",
      name: "exists",
      bang: false,
      args: [{ expr: probe, ...span }],
      nameSpan: span,
      ...span,
    };
    e = { k: "if", cond: exists, then: [variant(c.fields[i])], else: [e], ...span };
  }
  return e;
}
