/** The shape of one VRL docs example and its constructors. */

import type { VrlCase } from "../harness.ts";

/** A documented example: the function it documents, the docs' title, and its expectation. */
export interface DocsExample extends VrlCase {
  fn: string;
  title: string;
}

/** The example's program gives `want` (compared through `toJson`). */
export const ex = (
  fn: string,
  title: string,
  program: string,
  want: unknown,
  input?: Record<string, unknown>,
): DocsExample => ({ fn, title, program, want, input });

/** The example's program gives exactly the VRL JSON text `json` (where `1.0` vs `1` matters). */
export const exJson = (fn: string, title: string, program: string, json: string): DocsExample => ({
  fn,
  title,
  program,
  json,
});

/** The example's program fails at run time with a message containing `error`. */
export const exErr = (fn: string, title: string, program: string, error: string): DocsExample => ({
  fn,
  title,
  program,
  error,
});

/** Raw program text: VRL escapes (`\d`, `\"`) are written as the docs show them. */
export const v = String.raw;

/** The example's program does not compile, with VRL error `code` (e.g. `E103`). */
export const exCompile = (fn: string, title: string, program: string, compile: string): DocsExample => ({
  fn,
  title,
  program,
  compile,
});
