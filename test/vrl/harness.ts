/** Shared runner for the data-driven VRL case tables. */

import assert from "node:assert/strict";
import {
  compileVrl,
  encodeJson,
  fromJson,
  loadVrlLibraries,
  toJson,
  VrlRuntimeError,
} from "../../engine/vrl/mod.ts";
import { PetrelError } from "../../src/common/errors.ts";

// What the pipeline engine and `petrel vrl` do when they load: import the libraries of sync VRL functions.
await loadVrlLibraries();

/** One case: a program, its input event, and exactly one expectation. */
export interface VrlCase {
  program: string;
  input?: Record<string, unknown>;
  /** Expected result compared through `toJson` (integers and floats both become numbers). */
  want?: unknown;
  /** Expected result as exact VRL JSON text (`encode_json` rendering: `1` vs `1.0`). */
  json?: string;
  /** Substring of the expected runtime error. */
  error?: string;
  /** Expected compile error code (e.g. `E103`), optionally with `|substring`. */
  compile?: string;
}

/** Shorthand: the program's result equals `want`. */
export const ok = (program: string, want: unknown, input?: Record<string, unknown>): VrlCase => ({
  program,
  want,
  input,
});
/** Shorthand: the result renders exactly as `json`. */
export const exact = (program: string, json: string, input?: Record<string, unknown>): VrlCase => ({
  program,
  json,
  input,
});
/** Shorthand: the program fails at run time with a message containing `error`. */
export const fails = (program: string, error: string, input?: Record<string, unknown>): VrlCase => ({
  program,
  error,
  input,
});
/** Shorthand: the program does not compile, with VRL error `code`. */
export const rejects = (program: string, compile: string): VrlCase => ({ program, compile });

/** Runs one case and asserts its expectation. */
export function check(c: VrlCase): void {
  if (c.compile !== undefined) {
    const [code, part] = c.compile.split("|");
    assert.throws(() => compileVrl(c.program), (e: unknown) => {
      assert.ok(e instanceof PetrelError, `expected PetrelError, got ${e}`);
      assert.equal(e.code, 1004);
      assert.ok(e.message.includes(`error[${code}]`), `expected ${code} in:\n${e.message}`);
      if (part) assert.ok(e.message.includes(part), `expected "${part}" in:\n${e.message}`);
      return true;
    });
    return;
  }
  const program = compileVrl(c.program);
  const event = fromJson(c.input ?? {});
  if (c.error !== undefined) {
    assert.throws(() => program.run(event), (e: unknown) => {
      assert.ok(e instanceof VrlRuntimeError, `expected VrlRuntimeError, got ${e}`);
      assert.ok(e.message.includes(c.error!), `expected "${c.error}" in: ${e.message}`);
      return true;
    });
    return;
  }
  const result = program.run(event);
  if (c.json !== undefined) assert.equal(encodeJson(result), c.json);
  else assert.deepEqual(toJson(result), c.want);
}

/** Registers one Deno test per case of a table. */
export function table(name: string, cases: VrlCase[]): void {
  cases.forEach((c, i) => {
    const label = c.program.length > 60 ? c.program.slice(0, 57) + "..." : c.program;
    Deno.test(`${name} #${i}: ${label.replaceAll("\n", "⏎")}`, () => check(c));
  });
}
