/**
 * The one interface every processor is compiled to, and the shared per-field loop (§4.0):
 * missing/null inputs, `ignore_missing`, and "expect string value" errors.
 */
import type { FieldSpec, OptionReader } from "../config.ts";
import { execError, illegalState, missingField } from "../errors.ts";
import { debugRepr, type Entry, isObject } from "../value.ts";
import { type TimeUnit } from "../../src/common/time_unit.ts";

/** Time-index candidates a `date`/`epoch` processor offers to auto-transform (§3.2). */
export interface TimeField {
  target: string;
  unit: TimeUnit;
  ignoreMissing: boolean;
}

/**
 * A compiled processor. `exec` receives the current entry (an object, or for `vrl` anything) and
 * returns the next one: normally the same object mutated, `null` to drop the entry, or (vrl only)
 * an array for one-to-many.
 */
export interface Processor {
  readonly name: string;
  /** True when the processor accepts any value (vrl), not only an object. */
  readonly wholeEntry?: boolean;
  readonly timeFields?: TimeField[];
  exec(entry: Entry): unknown;
}

/** Compiles one processor's options. */
export type ProcessorCompiler = (opts: OptionReader) => Processor;

/** How a per-field processor treats an input that is absent or null. */
export interface FieldLoopOptions {
  /** `json_parse`, `json_path`, `simple_extract`: only an absent key is "missing". */
  nullIsPresent?: boolean;
}

/** Builds a processor that calls `apply` for each configured field whose input is present. */
export function fieldProcessor(
  name: string,
  fields: FieldSpec[],
  ignoreMissing: boolean,
  apply: (value: unknown, field: FieldSpec, entry: Entry) => void,
  opts: FieldLoopOptions = {},
  extra: Partial<Processor> = {},
): Processor {
  const nullIsPresent = opts.nullIsPresent ?? false;
  return {
    name,
    ...extra,
    exec(entry: Entry): unknown {
      if (!isObject(entry)) throw illegalState("Top level value must be map");
      for (let i = 0; i < fields.length; i++) {
        const f = fields[i];
        let v = entry[f.input];
        // Names like `toString` must not find Object.prototype members.
        if (typeof v === "function") v = undefined;
        if (v === undefined || (v === null && !nullIsPresent)) {
          if (ignoreMissing) continue;
          throw missingField(name, f.input);
        }
        apply(v, f, entry);
      }
      return entry;
    },
  };
}

/** Returns `v` as a string or throws `Processor <name>: expect string value, but got …`. */
export function expectString(name: string, v: unknown): string {
  if (typeof v !== "string") {
    throw execError(`Processor ${name}: expect string value, but got ${debugRepr(v)}`);
  }
  return v;
}
