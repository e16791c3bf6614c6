/** `json_parse`: a JSON string → object/array (reference §4.11). */
import { execError } from "../errors.ts";
import { parseJsonText } from "../../src/common/json_text.ts";
import { debugRepr, toStringLossy } from "../value.ts";
import { fieldProcessor, type ProcessorCompiler } from "./common.ts";

/** Compiles a `json_parse` processor. */
export const compileJsonParse: ProcessorCompiler = (o) =>
  fieldProcessor("json_parse", o.fields(), o.ignoreMissing(), (v, f, entry) => {
    if (typeof v !== "string") throw execError(`Field ${toStringLossy(v)} must be a string`);
    let parsed: unknown;
    try {
      parsed = parseJsonText(v);
    } catch {
      throw execError("Failed to parse json");
    }
    if (parsed === null || typeof parsed !== "object") {
      throw execError(`Processor json_parse: unsupported value ${debugRepr(parsed)}`);
    }
    entry[f.target] = parsed;
  }, { nullIsPresent: true });
