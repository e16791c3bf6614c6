/**
 * The pipeline `vrl` processor's use of the engine (reference §4.18): upload-time compilation with
 * GreptimeDB's result checks and messages, and per-entry execution that turns the program's result
 * into zero, one or many rows.
 */

import { invalidArguments, PetrelError, StatusCode } from "../../src/common/errors.ts";
import { VrlRuntimeError } from "./diagnostic.ts";
import { checkPipelineResult, compileVrl, type VrlProgram } from "./program.ts";
import type { VrlObject, VrlValue } from "./value.ts";
import { VrlTimestamp } from "./value.ts";

/** Compiles a processor's `source`; errors are 1004 with GreptimeDB's texts (`Failed to compile VRL, …`). */
export function compileForPipeline(source: string): VrlProgram {
  let program: VrlProgram;
  try {
    program = compileVrl(source);
  } catch (e) {
    if (e instanceof PetrelError) throw invalidArguments(`Failed to compile VRL, ${e.message}`);
    throw e;
  }
  const problem = checkPipelineResult(program);
  if (problem) throw invalidArguments(problem);
  return program;
}

/** The kind names GreptimeDB uses in the one-to-many error (`map`, not `object`). */
function elementKind(v: VrlValue): string {
  switch (typeof v) {
    case "string":
      return "string";
    case "bigint":
      return "integer";
    case "number":
      return "float";
    case "boolean":
      return "boolean";
  }
  if (v === null) return "null";
  if (v instanceof Map) return "map";
  if (Array.isArray(v)) return "array";
  if (v instanceof VrlTimestamp) return "timestamp";
  return "regex";
}

function notAnObject(index: number, v: VrlValue): PetrelError {
  return new PetrelError(
    StatusCode.IllegalState,
    `Array element at index ${index} must be an object for one-to-many transformation, got ${elementKind(v)}`,
  );
}

/**
 * Runs the program over one entry (metadata starts empty) and returns the resulting rows: an object
 * is one row, `null` none, an array one row per element (each must be an object). Errors:
 * `Failed to execute VRL, <msg>` (1004) and the one-to-many element error (1006, HTTP 500).
 */
export function runForPipeline(program: VrlProgram, entry: VrlObject): VrlObject[] {
  let result: VrlValue;
  try {
    result = program.run(entry, new Map());
  } catch (e) {
    if (e instanceof VrlRuntimeError) throw invalidArguments(`Failed to execute VRL, ${e.message}`);
    throw e;
  }
  if (result instanceof Map) return [result];
  if (result === null) return [];
  if (Array.isArray(result)) {
    result.forEach((v, i) => {
      if (!(v instanceof Map)) throw notAnObject(i, v);
    });
    return result as VrlObject[];
  }
  throw notAnObject(0, result);
}
