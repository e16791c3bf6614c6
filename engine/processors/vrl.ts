/**
 * `vrl`: the registration hook for the VRL interpreter (reference §4.18). Until a compiler is
 * registered with `setVrlCompiler`, uploading a pipeline that uses `vrl` fails with a clear error.
 */
import { PetrelError } from "../../src/http/errors.ts";
import { execError } from "../errors.ts";
import type { Processor, ProcessorCompiler } from "./common.ts";

/** A compiled VRL program: runs on the current entry and returns the program's result value. */
export interface VrlRunner {
  run(event: unknown): unknown;
}

/** Compiles VRL source; throws (any Error) with the diagnostic text on compile errors. */
export type VrlCompiler = (source: string) => VrlRunner;

let compiler: VrlCompiler | undefined;

/** Plugs the VRL implementation in (one line at start-up: `setVrlCompiler(compileVrl)`). */
export function setVrlCompiler(fn: VrlCompiler | undefined): void {
  compiler = fn;
}

/** Compiles a `vrl` processor. */
export const compileVrlProcessor: ProcessorCompiler = (o): Processor => {
  const source = o.string("source");
  if (source === undefined) return o.fail("Failed to compile VRL, source is required", "source");
  if (!compiler) return o.fail("Failed to compile VRL, VRL not available in this build", "source");
  let program: VrlRunner;
  try {
    program = compiler(source);
  } catch (e) {
    const msg = (e as Error).message ?? String(e);
    const reason = e instanceof PetrelError && /^(Failed to compile VRL|Vrl script|Please don't)/.test(msg)
      ? msg
      : `Failed to compile VRL, ${msg}`;
    return o.fail(reason, "source");
  }
  return {
    name: "vrl",
    wholeEntry: true,
    exec(entry) {
      try {
        return program.run(entry);
      } catch (e) {
        const msg = (e as Error).message ?? String(e);
        if (e instanceof PetrelError && msg.startsWith("Failed to execute VRL")) throw e;
        throw execError(`Failed to execute VRL, ${msg}`);
      }
    },
  };
};
