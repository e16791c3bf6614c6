/**
 * Typed access to one processor's (or transform's) YAML options, with GreptimeDB's error texts and
 * the processor/key/line of the offending option. Also parses `field`/`fields` specs (§3.3).
 */
import { compileError, type YamlLocation } from "./errors.ts";
import { keyString, nodeText, type YNode } from "./yaml_doc.ts";

/** One field spec: read `input`, write `target` (the rename when given, else the input). */
export interface FieldSpec {
  input: string;
  rename?: string;
  target: string;
}

/** Reader over a processor's option map. */
export class OptionReader {
  constructor(readonly processor: string, readonly node: YNode & { t: "map" }) {}

  /** Location of `key` (or of the processor) for error messages. */
  loc(key?: string): YamlLocation {
    const n = key ? this.get(key) : undefined;
    return { processor: this.processor, key, line: n?.line || this.node.line || undefined };
  }

  /** Throws a compile error naming this processor and `key`. */
  fail(reason: string, key?: string): never {
    return compileError(reason, this.loc(key));
  }

  /** The value of `key` (last occurrence wins). */
  get(key: string): YNode | undefined {
    let found: YNode | undefined;
    for (const p of this.node.pairs) if (keyString(p) === key) found = p.value;
    return found;
  }

  /** Whether `key` is set to something other than null. */
  has(key: string): boolean {
    const n = this.get(key);
    return n !== undefined && n.t !== "null";
  }

  /** A string option; null counts as absent. */
  string(key: string): string | undefined {
    const n = this.get(key);
    if (!n || n.t === "null") return undefined;
    if (n.t !== "str") return this.fail(`Field ${key} must be a string`, key);
    return n.v;
  }

  /** A boolean option (must be a YAML boolean). */
  bool(key: string): boolean | undefined {
    const n = this.get(key);
    if (!n || n.t === "null") return undefined;
    if (n.t !== "bool") return this.fail(`Field ${key} must be a boolean`, key);
    return n.v;
  }

  /** A list of strings. */
  stringList(key: string): string[] | undefined {
    const n = this.get(key);
    if (!n || n.t === "null") return undefined;
    if (n.t !== "seq") return this.fail(`Field ${key} must be a list`, key);
    return n.items.map((i) => {
      if (i.t !== "str") return this.fail(`Field ${key} must be a string`, key);
      return i.v;
    });
  }

  /** `ignore_missing`, default false. */
  ignoreMissing(): boolean {
    return this.bool("ignore_missing") ?? false;
  }

  /** `field` / `fields` (whichever comes later in the map wins); empty when neither is set. */
  fields(): FieldSpec[] {
    let out: FieldSpec[] = [];
    for (const p of this.node.pairs) {
      const k = keyString(p);
      if (k === "field") {
        if (p.value.t === "null") out = [];
        else out = [parseFieldSpec(p.value, "field", this.loc("field"))];
      } else if (k === "fields") {
        if (p.value.t === "null") out = [];
        else if (p.value.t !== "seq") return this.fail("Field fields must be a list", "fields");
        else out = p.value.items.map((i) => parseFieldSpec(i, "fields", this.loc("fields")));
      }
    }
    return out;
  }
}

/** Parses one field spec node: `"in"`, `"in, out"` or `{key: in, rename_to: out}`. */
export function parseFieldSpec(n: YNode, key: string, loc: YamlLocation): FieldSpec {
  if (n.t === "str") return parseFieldString(n.v, loc);
  if (n.t === "map") {
    let input: YNode | undefined;
    let rename: YNode | undefined;
    for (const p of n.pairs) {
      const k = keyString(p);
      if (k === "key") input = p.value;
      else if (k === "rename_to") rename = p.value;
    }
    if (input?.t !== "str" || rename?.t !== "str") {
      return compileError(
        `Field renaming must be a string pair of 'key' and 'rename_to', got: ${nodeText(n)}`,
        { ...loc, line: n.line || loc.line },
      );
    }
    if (input.v.trim() === "") return compileError("Empty input field", loc);
    return { input: input.v, rename: rename.v, target: rename.v };
  }
  return compileError(`Field ${key} must be a string or key-rename_to map`, {
    ...loc,
    line: n.line || loc.line,
  });
}

/** Parses `"input"` or `"input, output"` (a third part is ignored). */
function parseFieldString(s: string, loc: YamlLocation = {}): FieldSpec {
  const parts = s.split(",");
  const input = parts[0].trim();
  if (input === "") return compileError("Empty input field", loc);
  if (parts.length > 1) {
    const rename = parts[1].trim();
    return { input, rename, target: rename };
  }
  return { input, target: input };
}
