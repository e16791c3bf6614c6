/**
 * Loki's label-set text form, `{name="value", other="v\"x"}` (what a protobuf push carries per
 * stream): names are bare words, values Go-quoted strings (escapes `\" \\ \n \t \r \a \b \f \v`,
 * `\xHH`, `\uHHHH`, `\UHHHHHHHH`, octal `\NNN`).
 */

/** A label string that does not parse; the message says where. */
export class LabelSyntaxError extends Error {}

const SIMPLE: Record<string, string> = {
  '"': '"',
  "\\": "\\",
  "'": "'",
  n: "\n",
  t: "\t",
  r: "\r",
  a: "\x07",
  b: "\b",
  f: "\f",
  v: "\v",
};

function isSpace(c: string): boolean {
  return c === " " || c === "\t" || c === "\n" || c === "\r";
}

function isNameChar(c: string): boolean {
  return (c >= "a" && c <= "z") || (c >= "A" && c <= "Z") || (c >= "0" && c <= "9") || c === "_" ||
    c === "." || c === ":";
}

/** Parses `{a="b", ...}` into (name, value) pairs in the order written. */
export function parseLokiLabels(s: string): [string, string][] {
  const out: [string, string][] = [];
  let i = 0;
  const n = s.length;
  const fail = (why: string): never => {
    throw new LabelSyntaxError(
      `${why} at offset ${i} of ${JSON.stringify(s.length > 200 ? s.slice(0, 200) + "…" : s)}`,
    );
  };
  const skipSpace = () => {
    while (i < n && isSpace(s[i])) i++;
  };
  skipSpace();
  if (s[i] !== "{") fail("expected '{'");
  i++;
  skipSpace();
  if (s[i] === "}") {
    i++;
  } else {
    for (;;) {
      skipSpace();
      const start = i;
      while (i < n && isNameChar(s[i])) i++;
      if (i === start) fail("expected a label name");
      const name = s.slice(start, i);
      skipSpace();
      if (s[i] !== "=") fail("expected '='");
      i++;
      skipSpace();
      if (s[i] !== '"') fail("expected a quoted label value");
      const [value, next] = readQuoted(s, i, fail);
      i = next;
      out.push([name, value]);
      skipSpace();
      if (s[i] === ",") {
        i++;
        continue;
      }
      if (s[i] === "}") {
        i++;
        break;
      }
      fail("expected ',' or '}'");
    }
  }
  skipSpace();
  if (i !== n) fail("unexpected text after '}'");
  return out;
}

function readQuoted(s: string, at: number, fail: (why: string) => never): [string, number] {
  let i = at + 1;
  let out = "";
  let runStart = i;
  for (;;) {
    if (i >= s.length) fail("unterminated quoted value");
    const c = s[i];
    if (c === '"') return [out + s.slice(runStart, i), i + 1];
    if (c !== "\\") {
      i++;
      continue;
    }
    out += s.slice(runStart, i);
    const e = s[i + 1];
    if (e === undefined) fail("unterminated escape");
    if (SIMPLE[e] !== undefined) {
      out += SIMPLE[e];
      i += 2;
    } else if (e === "x" || e === "u" || e === "U") {
      const len = e === "x" ? 2 : e === "u" ? 4 : 8;
      const hex = s.slice(i + 2, i + 2 + len);
      if (hex.length !== len || !/^[0-9a-fA-F]+$/.test(hex)) fail("invalid hex escape");
      const cp = parseInt(hex, 16);
      if (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) fail("invalid code point escape");
      out += String.fromCodePoint(cp);
      i += 2 + len;
    } else if (e >= "0" && e <= "7") {
      const oct = s.slice(i + 1, i + 4);
      if (!/^[0-7]{3}$/.test(oct) || parseInt(oct, 8) > 255) fail("invalid octal escape");
      out += String.fromCharCode(parseInt(oct, 8));
      i += 4;
    } else fail(`unknown escape '\\${e}'`);
    runStart = i;
  }
}
