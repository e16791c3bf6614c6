/** VRL syntax tree. Every node carries its byte span for diagnostics. */

import type { VrlValue } from "./value.ts";

/** A byte range of the source. */
export interface Span {
  start: number;
  end: number;
}

/** One path segment: a field name or an array index. */
export type Segment = string | number;

/** Where a path starts: the event (`.`), metadata (`%`), or a local variable. */
export type PathRoot =
  | { kind: "event" }
  | { kind: "meta" }
  | { kind: "var"; name: string }
  | { kind: "expr"; expr: Expr };

/** A path query such as `.a.b[0]`, `%meta`, `x.y`, `parse_json!(.m).field`. */
export interface PathNode extends Span {
  k: "path";
  root: PathRoot;
  segs: Segment[];
  /** Path coalescing `.(a | b)`: the segment at `at` is the first of `fields` present (the parser desugars it). */
  coalesce?: { at: number; fields: string[] };
}

/** An assignment target; `_` discards. */
export type Target = PathNode | ({ k: "noop" } & Span);

/** Function argument. */
export interface Arg extends Span {
  name?: string;
  expr: Expr;
}

/** A closure attached to a function call. */
export interface Closure extends Span {
  params: { name: string; span: Span }[];
  body: Expr[];
}

/** Any expression. */
export type Expr =
  | ({ k: "lit"; value: VrlValue } & Span)
  | ({ k: "template"; parts: (string | Expr)[] } & Span)
  | ({ k: "array"; items: Expr[] } & Span)
  | ({ k: "object"; entries: [string, Expr][] } & Span)
  | PathNode
  | ({ k: "assign"; target: Target; op: "=" | "|="; value: Expr } & Span)
  | ({ k: "assign2"; ok: Target; err: Target; value: Expr } & Span)
  | ({ k: "call"; name: string; bang: boolean; args: Arg[]; closure?: Closure; nameSpan: Span } & Span)
  | ({ k: "if"; cond: Expr; then: Expr[]; else?: Expr[] } & Span)
  // `group`: `(a; b)`, whose variables stay in the enclosing scope (an `if` predicate list), unlike `{ … }`.
  | ({ k: "block"; body: Expr[]; group?: boolean } & Span)
  | ({ k: "not"; expr: Expr } & Span)
  | ({ k: "neg"; expr: Expr } & Span)
  | (
    & { k: "binary"; op: string; l: Expr; r: Expr; /** Where the operator is written. */ opStart?: number }
    & Span
  )
  | ({ k: "abort"; message?: Expr } & Span)
  | ({ k: "return"; value: Expr } & Span);
