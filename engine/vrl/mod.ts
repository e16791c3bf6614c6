/** VRL (Vector Remap Language) for the pipeline `vrl` processor and the `petrel vrl` command. */

export {
  checkPipelineResult,
  compileVrl,
  resultHasRegex,
  resultKindName,
  type VrlProgram,
} from "./program.ts";
export { VrlRuntimeError } from "./diagnostic.ts";
export {
  displayValue,
  encodeJson,
  fromJson,
  kindOf,
  toJson,
  type VrlObject,
  VrlRegex,
  VrlTimestamp,
  type VrlValue,
} from "./value.ts";
export { parseJsonText } from "./stdlib/parse.ts";
export { loadVrlLibraries } from "./stdlib/libraries.ts";
export { jsonVrlLogSink, setVrlLogSink } from "./stdlib/misc.ts";
