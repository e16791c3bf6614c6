/** Compile-once, run-many VRL programs: the entry point other modules use. */

import { invalidArguments } from "../../src/common/errors.ts";
import { compileProgram } from "./compile.ts";
import type { Ctx } from "./compile_state.ts";
import {
  renderDiagnostic,
  renderDiagnostics,
  VrlCompileError,
  VrlCompileErrors,
  VrlRuntimeError,
} from "./diagnostic.ts";
import { parseProgram } from "./parser.ts";
import { STDLIB } from "./stdlib/mod.ts";
import { K, kindName, mayContainRegex, type TypeDef } from "./types.ts";
import type { VrlValue } from "./value.ts";

/** A compiled program. `run` mutates and may return the event it is given. */
export interface VrlProgram {
  /** Runs the program over one event; returns the value of the last expression. Throws `VrlRuntimeError`. */
  run(event: VrlValue, metadata?: VrlValue): VrlValue;
  /** The event as the last run left it (what `--print-object` shows). */
  readonly lastEvent: VrlValue;
  /** Static type of the program's result. */
  readonly resultType: TypeDef;
  /** The source text. */
  readonly source: string;
}

/** Parses and checks a program; compile errors throw a 1004 PetrelError carrying VRL's diagnostic. */
export function compileVrl(source: string): VrlProgram {
  let compiled;
  try {
    compiled = compileProgram(parseProgram(source), STDLIB);
  } catch (e) {
    if (e instanceof VrlCompileError) throw invalidArguments(renderDiagnostic(source, e));
    if (e instanceof VrlCompileErrors) throw invalidArguments(renderDiagnostics(source, e.errors));
    // A program nested deeply enough to exhaust the parser's stack is still bad input, not a crash.
    if (e instanceof RangeError) {
      throw invalidArguments(`error[E203]: program is too deeply nested: ${e.message}`);
    }
    throw e;
  }
  const { run, slots, type } = compiled;
  let lastEvent: VrlValue = null;
  return {
    source,
    resultType: type,
    get lastEvent() {
      return lastEvent;
    },
    run(event: VrlValue, metadata: VrlValue = new Map()): VrlValue {
      const ctx: Ctx = { event, meta: metadata, vars: new Array(slots).fill(null) };
      try {
        return run(ctx);
      } catch (e) {
        if (e instanceof VrlRuntimeError) throw e;
        // Anything else (a failure that escaped handling, a stack overflow on deep data, a JS
        // error inside a function) still only fails this event.
        throw new VrlRuntimeError(e instanceof Error ? e.message : String(e));
      } finally {
        lastEvent = ctx.event;
      }
    },
  };
}

/** True when the program's result may hold a regex (GreptimeDB rejects such pipelines at upload). */
export function resultHasRegex(program: VrlProgram): boolean {
  return mayContainRegex(program.resultType);
}

/** VRL-style name of the result kind, e.g. `string` or `object or null`. */
export function resultKindName(program: VrlProgram): string {
  return kindName(program.resultType.kind);
}

/**
 * The upload-time checks the pipeline's `vrl` processor applies (reference §4.18): the result must
 * possibly be an object or array, and must not contain a regex. Returns the error message or null.
 */
export function checkPipelineResult(program: VrlProgram): string | null {
  if (!(program.resultType.kind & (K.OBJECT | K.ARRAY))) {
    return `Vrl script should return object or array in the end, got \`${resultKindName(program)}\``;
  }
  if (resultHasRegex(program)) return "Please don't use regex in Vrl script";
  return null;
}
