/** `digest`: removes variable parts (numbers, quotes, ids…) into `<input>_digest` (reference §4.5). */
import { keyString } from "../yaml_doc.ts";
import { compileRustRegex } from "../rust_regex.ts";
import { expectString, fieldProcessor, type ProcessorCompiler } from "./common.ts";

const PRESETS: Record<string, string> = {
  numbers: "\\d+",
  quoted: "[\"'“”‘’][^\"'“”‘’]*[\"'“”‘’]",
  bracketed:
    "[({\\[<「『【〔［｛〈《][^(){}\\[\\]<>「」『』【】〔〕［］｛｝〈〉《》]*[)}\\]>」』】〕］｝〉》]",
  uuid: "\\b[0-9a-fA-F]{8}\\b-[0-9a-fA-F]{4}\\b-[0-9a-fA-F]{4}\\b-[0-9a-fA-F]{4}\\b-[0-9a-fA-F]{12}\\b",
  ip: "((\\d{1,3}\\.){3}\\d{1,3}(:\\d+)?|(\\[[0-9a-fA-F:]+\\])(:\\d+)?)",
};

/** Compiles a `digest` processor. */
export const compileDigest: ProcessorCompiler = (o) => {
  const regexes: RegExp[] = [];
  for (const p of o.node.pairs) {
    const k = keyString(p);
    if (k !== "presets" && k !== "regex") continue;
    const list = p.value;
    if (list.t !== "seq") return o.fail(`Wrong digest pattern: ${k}`, k);
    for (const item of list.items) {
      if (item.t !== "str") return o.fail(`Wrong digest pattern: ${k}`, k);
      let src: string;
      if (k === "presets") {
        src = PRESETS[item.v];
        if (src === undefined) return o.fail(`Wrong digest pattern: ${item.v}`, k);
      } else src = item.v;
      try {
        regexes.push(compileRustRegex(src, "g"));
      } catch (e) {
        return o.fail(`Invalid regex pattern: ${src}: ${(e as Error).message}`, k);
      }
    }
  }
  return fieldProcessor("digest", o.fields(), o.ignoreMissing(), (v, f, entry) => {
    let s = expectString("digest", v);
    for (const re of regexes) s = s.replace(re, "");
    entry[`${f.input}_digest`] = s;
  });
};
