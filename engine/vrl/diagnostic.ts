/** Compile-time diagnostics (VRL's `error[E…]` reports) and the runtime error type. */

/** One underlined span of a diagnostic: the primary label (`^^^`) or a context label (`---`). */
export interface DiagnosticLabel {
  start: number;
  end: number;
  message: string;
  primary: boolean;
  /** A message quoting the program's text, built when the diagnostic is rendered (instead of `message`). */
  quote?: (src: string) => string;
}

/** VRL's `Note::SeeErrorDocs`. */
export const SEE_ERROR_DOCS = "see documentation about error handling at https://errors.vrl.dev/#handling";

/** VRL's `Note::CoerceValue`. */
export const COERCE_VALUE = "hint: coerce the value to the required type using a coercion function";

/**
 * A compile error at a byte span of the source; rendered with line and column by `renderDiagnostic`.
 * Without `labels`, the span is the one primary label and `note` its message.
 */
export class VrlCompileError extends Error {
  readonly code: string;
  readonly start: number;
  readonly end: number;
  readonly note: string;
  readonly labels: DiagnosticLabel[];
  /** VRL's own notes (`= …` lines) before the ones every diagnostic gets. */
  readonly notes: string[];
  /** Notes that quote the program's text, built when the diagnostic is rendered (after `notes`). */
  readonly sourceNotes?: (src: string) => string[];
  constructor(
    code: string,
    message: string,
    start: number,
    end: number,
    note = "",
    extra: { labels?: DiagnosticLabel[]; notes?: string[]; sourceNotes?: (src: string) => string[] } = {},
  ) {
    super(message);
    this.name = "VrlCompileError";
    this.code = code;
    this.start = start;
    this.end = end;
    this.note = note;
    this.labels = extra.labels ?? [{ start, end, message: note, primary: true }];
    this.notes = extra.notes ?? [];
    this.sourceNotes = extra.sourceNotes;
  }
}

/** Several compile errors of one program, in the order VRL reports them; rendered one after another. */
export class VrlCompileErrors extends Error {
  constructor(readonly errors: VrlCompileError[]) {
    super(errors.map((e) => e.message).join("; "));
    this.name = "VrlCompileErrors";
  }
}

/** A runtime failure that ends the program (`abort`, an error raised through `!`, or an unhandled error). */
export class VrlRuntimeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "VrlRuntimeError";
  }
}

/** A fallible expression's error; `??`, `ok, err = …` and `!` catch it. */
export class VrlFailure extends Error {
  constructor(message: string) {
    super(message);
    this.name = "VrlFailure";
  }
}

/** Line and column (both 1-based, column in characters) of a source offset. */
export function lineCol(src: string, offset: number): { line: number; col: number } {
  let line = 1, lineStart = 0;
  for (let i = 0; i < offset && i < src.length; i++) {
    if (src[i] === "\n") {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, col: offset - lineStart + 1 };
}

/** A label clipped to its first line, in columns of that line (0-based, end exclusive). */
interface LineLabel {
  start: number;
  end: number;
  message: string;
  primary: boolean;
}

const overlaps = (a: LineLabel, b: LineLabel) => a.start < b.end && b.start < a.end;

/**
 * The rows codespan-reporting (VRL's renderer) writes under one source line: a row of carets (`^` primary,
 * `-` context) with the last label's message trailing when it overlaps no other, then the other messages
 * hanging below `│` pointers, rightmost first (labels with the same span in the order they were given).
 */
function labelRows(text: string, given: LineLabel[]): string[] {
  // Sorted by (start, end); equal spans in reverse of the given order, as codespan inserts them.
  const labels: LineLabel[] = [];
  for (const l of given) {
    let i = 0;
    while (
      i < labels.length &&
      (labels[i].start < l.start || (labels[i].start === l.start && labels[i].end < l.end))
    ) {
      i++;
    }
    labels.splice(i, 0, l);
  }
  let maxStart = 0, maxEnd = 0, messages = 0;
  let trailing: LineLabel | undefined;
  for (const l of labels) {
    if (l.message) messages++;
    maxStart = Math.max(maxStart, l.start);
    maxEnd = Math.max(maxEnd, l.end);
    if (l.end === maxEnd) trailing = l.message ? l : undefined;
  }
  if (trailing && labels.some((l) => l !== trailing && overlaps(trailing!, l))) trailing = undefined;
  const hanging = labels.filter((l) => l.message && l !== trailing);
  const chars = [...text, "\0"];
  let carets = "";
  for (let c = 0; c < chars.length; c++) {
    const here = labels.filter((l) => l.start <= c && c < Math.max(l.end, l.start + 1));
    if (here.some((l) => l.primary)) carets += "^";
    else if (here.length) carets += "-";
    else if (c < maxEnd) carets += " ";
  }
  const rows = [carets + (trailing ? " " + trailing.message : "")];
  if (messages > (trailing ? 1 : 0)) {
    const pointers = (upTo: number) => {
      let s = "";
      for (let c = 0; c < Math.min(upTo, chars.length - 1); c++) {
        if (hanging.some((l) => l.start === c)) s += "│";
        else if (c <= maxStart) s += " ";
      }
      return s;
    };
    rows.push(pointers(Infinity));
    for (const l of [...hanging].reverse()) rows.push(pointers(l.start) + l.message);
  }
  return rows;
}

/**
 * Renders a diagnostic the way VRL does (codespan-reporting without colour, line ends trimmed): header,
 * location of the primary label, each labelled source line with its labels, then the notes, ending with
 * the ones every VRL diagnostic carries.
 */
export function renderDiagnostic(src: string, e: VrlCompileError): string {
  const srcLines = src.split("\n");
  const byLine = new Map<number, LineLabel[]>();
  for (const l of e.labels) {
    const { line, col } = lineCol(src, l.start);
    const text = srcLines[line - 1] ?? "";
    // A span running past its first line is clipped to it (codespan draws those with a left border).
    const end = Math.max(col, Math.min(col - 1 + (l.end - l.start), text.length));
    const list = byLine.get(line) ?? [];
    list.push({ start: col - 1, end, message: l.quote?.(src) ?? l.message, primary: l.primary });
    byLine.set(line, list);
  }
  const primary = e.labels.find((l) => l.primary) ?? e.labels[0];
  const at = lineCol(src, primary?.start ?? e.start);
  const lineNumbers = [...byLine.keys()].sort((a, b) => a - b);
  const gutter = " ".repeat(String(lineNumbers.at(-1) ?? at.line).length);
  const out = [`error[${e.code}]: ${e.message}`, `${gutter} ┌─ :${at.line}:${at.col}`, `${gutter} │`];
  lineNumbers.forEach((n, i) => {
    const text = srcLines[n - 1] ?? "";
    out.push(`${String(n).padStart(gutter.length)} │ ${text}`);
    for (const row of labelRows(text, byLine.get(n)!)) out.push(`${gutter} │ ${row}`);
    const next = lineNumbers[i + 1];
    if (next === n + 2) out.push(`${String(n + 1).padStart(gutter.length)} │ ${srcLines[n]}`);
    else if (next !== undefined && next > n + 2) out.push(`${gutter} ·`);
  });
  out.push(`${gutter} │`);
  const code = Number(e.code.slice(1));
  const notes = [...e.notes, ...(e.sourceNotes?.(src) ?? [])];
  if (code >= 100 && code < 1000) {
    notes.push(`learn more about error code ${code} at https://errors.vrl.dev/${code}`);
  }
  notes.push("see language documentation at https://vrl.dev");
  notes.push("try your code in the VRL REPL, learn more at https://vrl.dev/examples");
  for (const note of notes) {
    note.split("\n").forEach((line, i) => out.push(`${gutter} ${i === 0 ? "=" : " "} ${line}`));
  }
  return out.map((l) => l.trimEnd()).join("\n");
}

/** Renders each diagnostic as `renderDiagnostic` does, separated by an empty line (VRL's `Formatter`). */
export function renderDiagnostics(src: string, errors: VrlCompileError[]): string {
  return errors.map((e) => renderDiagnostic(src, e)).join("\n\n");
}

/** VRL's E630: an argument that can fail must be handled before it is passed. */
export function fallibleArgument(a: { start: number; end: number }): VrlCompileError {
  return new VrlCompileError("E630", "fallible argument", a.start, a.end, "this expression can fail", {
    labels: [
      { start: a.start, end: a.end, message: "this expression can fail", primary: true },
      {
        start: a.start,
        end: a.end,
        message: "handle the error before passing it in as an argument",
        primary: false,
      },
    ],
    notes: [SEE_ERROR_DOCS],
  });
}

/** VRL's E100: a statement that can fail and whose error nothing handles. */
export function unhandledError(a: { start: number; end: number }): VrlCompileError {
  return new VrlCompileError(
    "E100",
    "unhandled error",
    a.start,
    a.end,
    "expression can result in runtime error",
    {
      labels: [
        { start: a.start, end: a.end, message: "expression can result in runtime error", primary: true },
        {
          start: a.start,
          end: a.end,
          message: "handle the error case to ensure runtime success",
          primary: false,
        },
      ],
      notes: [SEE_ERROR_DOCS],
    },
  );
}

/** VRL's E102 (`predicate::Error::NonBoolean`): an `if` condition that is not known to be a boolean. */
export function nonBooleanPredicate(a: { start: number; end: number }, kind: string): VrlCompileError {
  return new VrlCompileError("E102", "non-boolean predicate", a.start, a.end, "", {
    labels: [
      { start: a.start, end: a.end, message: "this predicate must resolve to a boolean", primary: true },
      { start: a.start, end: a.end, message: `instead it resolves to ${kind}`, primary: false },
    ],
    notes: [
      COERCE_VALUE,
      "see documentation about if expressions at https://expressions.vrl.dev/#if",
    ],
  });
}

/** VRL's E620: `name!(…)` on a function that cannot fail; `bangAt` is the offset of the `!`. */
export function abortInfallible(name: { start: number; end: number }, bangAt: number): VrlCompileError {
  return new VrlCompileError("E620", "can't abort infallible function", name.start, name.end, "", {
    labels: [
      { start: name.start, end: name.end, message: "this function can't fail", primary: true },
      { start: bangAt, end: bangAt + 1, message: "remove this abort-instruction", primary: false },
    ],
    notes: [SEE_ERROR_DOCS],
  });
}
