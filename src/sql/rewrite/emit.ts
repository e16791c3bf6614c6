/**
 * Renders a token range back to SQL with every rewrite applied: table references, ILIKE, the token
 * and call rewrites, and the NULLS ordering GreptimeDB uses by default.
 */
import type { Token } from "../lexer.ts";
import { isKeyword, isOp } from "../lexer.ts";
import { quoteIdent, quoteString } from "../../storage/table.ts";
import { orderByNulls } from "../dialect_rules.ts";
import { errorAt, type QueryTokens, SYNTHETIC } from "../query_tokens.ts";
import { aliasOf, compoundItems, findTopSelect, subqueryItems } from "../select_list.ts";
import type { RewriteCtx, RewriteEnv, TimeScope, TokenRewrite } from "./context.ts";
import { rewriteToken } from "./tokens.ts";
import { decimalExprAt } from "./decimal_arith.ts";
import { atTimeZones } from "./at_time_zone.ts";
import { quantifiedComparisons } from "./quantified.ts";
import { arrayConcatenations } from "./arrays.ts";
import { uint64Rewrites } from "./uint64.ts";

/** A rewrite rendered on demand (it needs `emit` of its own operands). */
interface LazyRewrite {
  end: number;
  render: () => string;
}

/** Emits rewritten SQL for token ranges of one query. */
export class Emitter {
  readonly ctx: RewriteCtx;
  private readonly toks: Token[];
  private readonly nullsOrder: Map<number, { text: string; start: number }>;
  /** Lazy rewrites by first token, outermost (longest) first: `ts AT TIME ZONE 'UTC' ILIKE …` has two. */
  private readonly lazy = new Map<number, LazyRewrite[]>();
  /** Lazy rewrites being rendered (their own start must then emit plainly). */
  private readonly active = new Set<LazyRewrite>();
  /** How deep emit calls nest (a rewrite emits its operands inside the emit that called it). */
  private depth = 0;
  /** The ORDER BY items whose NULLS suffix the current outermost emit has written. */
  private readonly suffixed = new Set<number>();

  constructor(
    q: QueryTokens,
    env: RewriteEnv,
    time: TimeScope,
    private readonly replacements: Map<number, { end: number; text: string }>,
  ) {
    this.toks = q.toks;
    const outputs = outputItems(q);
    let subItems: Map<number, number> | undefined;
    this.ctx = {
      q,
      toks: q.toks,
      env,
      time,
      tz: quoteString(env.timezone ?? "UTC"),
      emit: this.emit,
      isOutputItem: (s, e) => outputs.get(s) === e,
      isSubqueryItem: (s, e) => (subItems ??= subqueryItems(q)).get(s) === e,
      decimalExprAt: (s, e) => decimalExprAt(this.ctx, s, e),
    };
    this.nullsOrder = orderByNulls(q);
    this.collectIlike(q);
    for (const r of atTimeZones(this.ctx)) this.addLazy(r.start, r.end, r.render);
    for (const r of quantifiedComparisons(this.ctx)) this.addLazy(r.start, r.end, r.render);
    for (const r of arrayConcatenations(this.ctx)) this.addLazy(r.start, r.end, r.render);
    for (const r of uint64Rewrites(this.ctx)) this.addLazy(r.start, r.end, r.render);
  }

  /** Registers a rewrite of `[start, end)` rendered when emitted (it emits its operands itself). */
  addLazy(start: number, end: number, render: () => string): void {
    const list = this.lazy.get(start) ?? [];
    const entry: LazyRewrite = {
      end,
      render: () => {
        this.active.add(entry);
        try {
          return render();
        } finally {
          this.active.delete(entry);
        }
      },
    };
    list.push(entry);
    list.sort((x, y) => y.end - x.end);
    this.lazy.set(start, list);
  }

  /** The whitespace between token `i` and the one before it, as in the source. */
  gap = (i: number): string => {
    if (i === 0) return "";
    const a = this.toks[i - 1], b = this.toks[i];
    if (a.pos === SYNTHETIC || b.pos === SYNTHETIC) {
      return (isOp(b, "(") && a.kind === "ident") || isOp(b, ")") || isOp(a, "(") ? "" : " ";
    }
    return a.pos + a.text.length === b.pos ? "" : " ";
  };

  /** A token as SQLite text (identifiers and strings requoted). */
  tokenText = (t: Token): string => {
    if (t.kind === "qident") return quoteIdent(t.value);
    if (t.kind === "string") return quoteString(t.value);
    return t.text;
  };

  /** The rewritten SQL of tokens `a` up to (not including) `b`. */
  emit = (a: number, b: number): string => {
    if (this.depth++ === 0) this.suffixed.clear();
    try {
      return this.emitRange(a, b);
    } finally {
      this.depth--;
    }
  };

  /**
   * Emits `[a, b)`. An ORDER BY item's NULLS suffix follows its last token, written by the innermost
   * emit that renders the whole item: not inside a rewrite of the item's last operand
   * (`val % __petrel_nonzero(2) NULLS LAST`), and once.
   */
  private emitRange(a: number, b: number): string {
    let out = "";
    for (let i = a; i < b;) {
      // one that ends past `b` is being rendered around this emit (its operand is emitted here)
      const l = this.lazy.get(i)?.find((x) => !this.active.has(x) && x.end <= b);
      const r: TokenRewrite | undefined = l ? { next: l.end, text: l.render() } : this.replacement(i);
      const s = r ? undefined : rewriteToken(this.ctx, i);
      const next = r ? r.next : s ? s.next : i + 1;
      out += this.gap(i) + (r ? r.text : s ? s.text : this.tokenText(this.toks[i]));
      for (let k = i; k < next; k++) {
        const suffix = this.nullsOrder.get(k);
        if (!suffix || suffix.start < a || this.suffixed.has(k)) continue;
        // an item wholly inside a replaced range (a derived table's own ORDER BY) was rendered by it
        if (suffix.start > i) continue;
        out += suffix.text;
        this.suffixed.add(k);
      }
      i = next;
    }
    return out;
  }

  private replacement(i: number): TokenRewrite | undefined {
    const r = this.replacements.get(i);
    return r && { next: r.end, text: r.text };
  }

  /**
   * LIKE is case-sensitive (as in DataFusion; the connection sets case_sensitive_like), so ILIKE
   * compares lowercased operands.
   */
  private collectIlike(q: QueryTokens): void {
    const toks = this.toks;
    for (let k = 0; k < toks.length; k++) {
      if (!isKeyword(toks[k], "ILIKE")) continue;
      const negated = isKeyword(toks[k - 1], "NOT");
      const leftEnd = negated ? k - 1 : k;
      const start = q.primaryStart(leftEnd);
      const end = q.primaryEnd(k + 1);
      if (start === leftEnd || end === k + 1) {
        throw errorAt(q.cursor, toks[k], "Expected: operands around ILIKE");
      }
      this.addLazy(start, end, () => {
        const left = this.emit(start, leftEnd).trim();
        return `lower(${left}) ${negated ? "NOT " : ""}LIKE lower(${this.emit(k + 1, end).trim()})`;
      });
    }
  }
}

/**
 * The expression ranges of the outermost SELECT's items (of every SELECT of a compound: each is
 * an output column, in its own type before the compound's types meet): start → end.
 */
function outputItems(q: QueryTokens): Map<number, number> {
  const items = new Map<number, number>();
  for (const [s, e] of findTopSelect(q.toks, q.match)?.items ?? []) {
    items.set(s, aliasOf(q.toks, s, e).exprEnd);
  }
  for (const [s, e] of compoundItems(q).flat()) items.set(s, e);
  return items;
}
