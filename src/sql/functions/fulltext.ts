/**
 * GreptimeDB's full-text functions without an index, as GreptimeDB evaluates them then:
 * `matches(text, pattern)` turns its pattern into case-sensitive substring tests (GreptimeDB rewrites
 * each term to `LIKE '%term%'`), `matches_term(text, term)` finds the term bounded by non-alphanumeric
 * characters or the ends of the text.
 */
import type { ScalarDef } from "./values.ts";
import { str } from "./values.ts";

/** A parsed `matches` pattern. */
type Pattern =
  | { kind: "term"; text: string; op: "should" | "must" | "not" }
  | { kind: "and" | "or"; children: Pattern[] };

type Token = { kind: "term"; text: string; op: "should" | "must" | "not" } | {
  kind: "and" | "or" | "open" | "close";
};

/** Splits a pattern into terms (`word`, `"a phrase"`, with `+`/`-` prefixes), `AND`, `OR` and parentheses. */
function tokenize(pattern: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < pattern.length) {
    const c = pattern[i];
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (c === "(" || c === ")") {
      out.push({ kind: c === "(" ? "open" : "close" });
      i++;
      continue;
    }
    let op: "should" | "must" | "not" = "should";
    if ((c === "+" || c === "-") && i + 1 < pattern.length && !/[\s()]/.test(pattern[i + 1])) {
      op = c === "+" ? "must" : "not";
      i++;
    }
    if (pattern[i] === '"') {
      let text = "";
      let j = i + 1;
      for (; j < pattern.length && pattern[j] !== '"'; j++) {
        text += pattern[j] === "\\" && j + 1 < pattern.length ? pattern[++j] : pattern[j];
      }
      if (j >= pattern.length) {
        throw new Error(`matches: unclosed quote in pattern ${JSON.stringify(pattern)}`);
      }
      out.push({ kind: "term", text, op });
      i = j + 1;
      continue;
    }
    let j = i;
    while (j < pattern.length && !/[\s()]/.test(pattern[j])) j++;
    const word = pattern.slice(i, j);
    i = j;
    if (op === "should" && (word === "AND" || word === "OR")) {
      out.push({ kind: word === "AND" ? "and" : "or" });
    } else out.push({ kind: "term", text: word, op });
  }
  return out;
}

/**
 * Parses tokens: `OR` binds loosest, then `AND`; terms side by side are OR'd, except that `+term`s
 * must all hold (the plain terms beside them then no longer count) and `-term`s must not.
 */
function parse(tokens: Token[], pattern: string): Pattern {
  let at = 0;
  const fail = (why: string): never => {
    throw new Error(`matches: ${why} in pattern ${JSON.stringify(pattern)}`);
  };
  const orExpr = (): Pattern => {
    const children = [andExpr()];
    while (tokens[at]?.kind === "or") {
      at++;
      children.push(andExpr());
    }
    return children.length === 1 ? children[0] : { kind: "or", children };
  };
  const andExpr = (): Pattern => {
    const children = [juxtaposed()];
    while (tokens[at]?.kind === "and") {
      at++;
      children.push(juxtaposed());
    }
    return children.length === 1 ? children[0] : { kind: "and", children };
  };
  const juxtaposed = (): Pattern => {
    const items: Pattern[] = [];
    for (let t = tokens[at]; t !== undefined && (t.kind === "term" || t.kind === "open"); t = tokens[at]) {
      items.push(primary());
    }
    if (items.length === 0) fail(at < tokens.length ? "an operator without an operand" : "nothing to match");
    return combine(items);
  };
  const primary = (): Pattern => {
    const t = tokens[at++];
    if (t.kind === "term") return t;
    const inner = orExpr();
    if (tokens[at]?.kind !== "close") fail("an unclosed parenthesis");
    at++;
    return inner;
  };
  const out = orExpr();
  if (at < tokens.length) fail(tokens[at].kind === "close" ? "an unmatched ')'" : "an unexpected operator");
  return out;
}

/** Terms side by side: the `+` and `-` ones are required, the rest optional unless nothing is required. */
function combine(items: Pattern[]): Pattern {
  if (items.length === 1) return items[0];
  const must = items.filter((p) => p.kind === "term" && p.op !== "should");
  const should = items.filter((p) => !(p.kind === "term" && p.op !== "should"));
  const hasMust = must.some((p) => p.kind === "term" && p.op === "must");
  const parts = [...must];
  if (!hasMust && should.length > 0) {
    parts.push(should.length === 1 ? should[0] : { kind: "or", children: should });
  }
  return parts.length === 1 ? parts[0] : { kind: "and", children: parts };
}

function evaluate(p: Pattern, text: string): boolean {
  switch (p.kind) {
    case "term":
      return text.includes(p.text) !== (p.op === "not");
    case "and":
      return p.children.every((c) => evaluate(c, text));
    case "or":
      return p.children.some((c) => evaluate(c, text));
  }
}

/** Compiled patterns by text: a query holds one pattern and calls `matches` once per row. */
const compiled = new Map<string, Pattern>();

function compile(pattern: string): Pattern {
  let p = compiled.get(pattern);
  if (p === undefined) {
    p = parse(tokenize(pattern), pattern);
    if (compiled.size >= 256) compiled.clear();
    compiled.set(pattern, p);
  }
  return p;
}

/** Substrings of `p` every matching text contains: its positive terms, through ANDs but not ORs. */
function requiredTerms(p: Pattern): string[] {
  switch (p.kind) {
    case "term":
      return p.op === "not" ? [] : [p.text];
    case "and":
      return p.children.flatMap(requiredTerms);
    case "or":
      return [];
  }
}

/**
 * The non-empty substrings every text that `matches(text, pattern)` holds must contain (case-sensitive,
 * as `evaluate` tests them), or undefined for a pattern that does not parse (its error stays the call's).
 */
export function requiredSubstrings(pattern: string): string[] | undefined {
  let p: Pattern;
  try {
    p = compile(pattern);
  } catch {
    return undefined;
  }
  return [...new Set(requiredTerms(p))].filter((t) => t !== "");
}

const ALNUM = /^[\p{Alphabetic}\p{N}]$/u;

/** The character (code point) ending just before `at`, or "" at the start. */
function charBefore(text: string, at: number): string {
  if (at === 0) return "";
  const low = text.charCodeAt(at - 1);
  return at >= 2 && low >= 0xdc00 && low <= 0xdfff ? text.slice(at - 2, at) : text[at - 1];
}

/** The character (code point) starting at `at`, or "" at the end. */
function charAt(text: string, at: number): string {
  return at >= text.length ? "" : String.fromCodePoint(text.codePointAt(at)!);
}

/** Whether `term` occurs in `text` with a non-alphanumeric character (or an end) on each side. */
export function matchesTerm(text: string, term: string): boolean {
  if (term === "") return text === "";
  // a term that starts (ends) with a non-alphanumeric character is its own boundary there
  const openStart = !ALNUM.test(charAt(term, 0));
  const openEnd = !ALNUM.test(charBefore(term, term.length));
  for (let at = text.indexOf(term); at >= 0; at = text.indexOf(term, at + 1)) {
    if (!openStart && ALNUM.test(charBefore(text, at))) continue;
    if (!openEnd && ALNUM.test(charAt(text, at + term.length))) continue;
    return true;
  }
  return false;
}

/** `matches` and `matches_term`: 1/0, or NULL for a NULL text. */
export const FULLTEXT_SCALARS: Record<string, ScalarDef> = {
  matches: {
    fn: (text, pattern) => {
      const t = str(text), p = str(pattern);
      if (t === null || p === null) return null;
      return evaluate(compile(p), t) ? 1 : 0;
    },
  },
  matches_term: {
    fn: (text, term) => {
      const t = str(text), p = str(term);
      if (t === null || p === null) return null;
      return matchesTerm(t, p) ? 1 : 0;
    },
  },
};
