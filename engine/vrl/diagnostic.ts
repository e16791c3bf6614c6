/** Compile-time diagnostics (VRL's `error[E…]` reports) and the runtime error type. */

/** A compile error at a byte span of the source; rendered with line and column by `renderDiagnostic`. */
export class VrlCompileError extends Error {
  readonly code: string;
  readonly start: number;
  readonly end: number;
  readonly note: string;
  constructor(code: string, message: string, start: number, end: number, note = "") {
    super(message);
    this.name = "VrlCompileError";
    this.code = code;
    this.start = start;
    this.end = end;
    this.note = note;
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

/** Renders a diagnostic the way VRL does: header, location, the source line and a caret underline. */
export function renderDiagnostic(src: string, e: VrlCompileError): string {
  const { line, col } = lineCol(src, e.start);
  const text = src.split("\n")[line - 1] ?? "";
  const width = Math.max(1, Math.min(e.end, e.start + text.length - col + 1) - e.start);
  const gutter = " ".repeat(String(line).length);
  const lines = [
    `error[${e.code}]: ${e.message}`,
    `${gutter} ┌─ :${line}:${col}`,
    `${gutter} │`,
    `${line} │ ${text}`,
    `${gutter} │ ${" ".repeat(col - 1)}${"^".repeat(width)}${e.note ? " " + e.note : ""}`,
    `${gutter} │`,
  ];
  return lines.join("\n");
}

/** VRL's E630: an argument that can fail must be handled before it is passed. */
export function fallibleArgument(a: { start: number; end: number }): VrlCompileError {
  return new VrlCompileError(
    "E630",
    "fallible argument",
    a.start,
    a.end,
    "this expression can fail; handle the error before passing it in as an argument",
  );
}
