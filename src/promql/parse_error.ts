/**
 * Parse errors as Prometheus prints them: `<line>:<column>: parse error: <message>`, the column
 * counted from 1 at the error's start offset.
 */
import { PetrelError, StatusCode } from "../common/errors.ts";
import type { PosRange } from "./ast.ts";

/** A syntax or type error in a query: 400 / `bad_data`. */
export class ParseError extends PetrelError {
  /** The message without position (what Prometheus' `ParseErr.Err` holds). */
  readonly detail: string;
  readonly posRange: PosRange;

  constructor(detail: string, pos: PosRange, query: string) {
    super(StatusCode.InvalidArguments, `${positionPrefix(query, pos.start)} parse error: ${detail}`);
    this.name = "ParseError";
    this.detail = detail;
    this.posRange = pos;
  }
}

/** `line:col:` of a byte offset, as Prometheus' `ParseErr.Error()` computes it. */
function positionPrefix(query: string, pos: number): string {
  if (pos < 0 || pos > query.length) return "invalid position:";
  let line = 1, lastLineBreak = -1;
  for (let i = 0; i < pos; i++) {
    if (query[i] === "\n") {
      line++;
      lastLineBreak = i;
    }
  }
  return `${line}:${pos - lastLineBreak}:`;
}
