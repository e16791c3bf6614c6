/**
 * `parse_xml`: XML to a VRL object, walking the document as VRL's `process_node` walks roxmltree's:
 * attributes prefixed `@` (kept as text), each text node under `text`, repeated names as arrays, an
 * element without children as `{}`, names without their namespace prefix.
 */

import { XMLParser, XMLValidator } from "fast-xml-parser";
import { K } from "../types.ts";
import type { VrlObject, VrlValue } from "../value.ts";
import { fail, flag, type FnDef, opt, req, str } from "./def.ts";

interface XmlOptions {
  includeAttr: boolean;
  attrPrefix: string;
  textKey: string;
  alwaysUseTextKey: boolean;
  parseBool: boolean;
  parseNull: boolean;
  parseNumber: boolean;
}

/** A node as roxmltree shows it: adjacent text and CDATA are one text node; comments and PIs count. */
type XmlNode =
  | { kind: "element"; name: string; attrs: [string, string][]; children: XmlNode[] }
  | { kind: "text"; text: string }
  | { kind: "other" };

/** fast-xml-parser's `preserveOrder` shape: one key naming the node, attributes under `:@`. */
type OrderedNode = Record<string, unknown>;

const PARSER = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: "",
  trimValues: false,
  parseTagValue: false,
  parseAttributeValue: false,
  // Entities are decoded here (`decodeEntities`): the parser leaves numeric references as written.
  processEntities: false,
  commentPropName: "#comment",
  cdataPropName: "#cdata",
  removeNSPrefix: true,
});

/** Entity names and their text (XML's five and those the document's DTD declares), and what expansion may add. */
interface Entities {
  names: Record<string, string>;
  budget: number;
}

const XML_ENTITIES: Record<string, string> = { lt: "<", gt: ">", amp: "&", apos: "'", quot: '"' };
/** Characters entity expansion may add to one document (entities declared from entities grow fast). */
const EXPANSION_BUDGET = 8 << 20;

// The general entities an internal DTD subset declares (`<!ENTITY name "text">`), as roxmltree expands them.
function dtdEntities(source: string): Entities {
  const entities = { names: { ...XML_ENTITIES }, budget: EXPANSION_BUDGET };
  const subset = /<!DOCTYPE[^[>]*\[([\s\S]*?)\]\s*>/.exec(source)?.[1];
  if (!subset) return entities;
  for (const m of subset.matchAll(/<!ENTITY\s+([^\s%"']+)\s+(?:"([^"]*)"|'([^']*)')\s*>/g)) {
    entities.names[m[1]] ??= decodeEntities(m[2] ?? m[3], entities);
  }
  return entities;
}

function decodeEntities(s: string, entities: Entities): string {
  if (!s.includes("&")) return s;
  return s.replace(/&(#x[0-9a-fA-F]+|#\d+|[A-Za-z_:][\w.:-]*);/g, (m, e: string) => {
    if (e[0] !== "#") {
      const text = entities.names[e];
      if (text === undefined) return m;
      entities.budget -= text.length;
      if (entities.budget < 0) fail("unable to parse xml: a possible entity reference loop is detected");
      return text;
    }
    const cp = e[1] === "x" ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
    return cp <= 0x10ffff ? String.fromCodePoint(cp) : m;
  });
}

function toNodes(list: OrderedNode[], entities: Entities): XmlNode[] {
  const out: XmlNode[] = [];
  let text: string | null = null;
  const flushText = () => {
    if (text !== null && text !== "") out.push({ kind: "text", text });
    text = null;
  };
  for (const node of list) {
    const name = Object.keys(node).find((k) => k !== ":@")!;
    const body = node[name];
    if (name === "#text" || name === "#cdata") {
      const piece = name === "#text"
        ? decodeEntities(String(body), entities)
        : (body as OrderedNode[]).map((t) => String(t["#text"] ?? "")).join("");
      text = (text ?? "") + piece;
      continue;
    }
    flushText();
    if (name === "#comment" || name.startsWith("?")) out.push({ kind: "other" });
    else {
      const raw = (node[":@"] ?? {}) as Record<string, string>;
      // Attribute values are normalized as XML says: literal tabs and line ends become spaces.
      const attrs = Object.entries(raw).map(([k, v]): [string, string] => [
        k,
        decodeEntities(String(v).replace(/[\t\n]/g, " "), entities),
      ]);
      out.push({ kind: "element", name, attrs, children: toNodes(body as OrderedNode[], entities) });
    }
  }
  flushText();
  return out;
}

// Element text typed as VRL's `process_text` does (Rust's `i64` then `f64` parsing).
function processText(s: string, o: XmlOptions): VrlValue {
  if (o.parseNull && (s === "" || s === "null")) return null;
  if (o.parseBool && (s === "true" || s === "false")) return s === "true";
  if (!o.parseNumber) return s;
  if (/^[+-]?\d+$/.test(s)) {
    const n = BigInt(s);
    if (n >= -(2n ** 63n) && n < 2n ** 63n) return n;
  }
  if (/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(s)) return Number(s);
  return s;
}

// Elements and text keyed by name (text under `text_key`); a repeated key gathers an array.
function recurse(attrs: [string, string][], children: XmlNode[], o: XmlOptions): VrlObject {
  const map: VrlObject = new Map();
  if (o.includeAttr) { for (const [k, v] of attrs) map.set(o.attrPrefix + k, v); }
  for (const child of children) {
    if (child.kind === "other") continue;
    const key = child.kind === "element" ? child.name : o.textKey;
    const value = processNode(child, o);
    const prev = map.get(key);
    if (prev === undefined) map.set(key, value);
    else if (Array.isArray(prev)) prev.push(value);
    else map.set(key, [prev, value]);
  }
  return map;
}

function processNode(node: XmlNode, o: XmlOptions): VrlValue {
  if (node.kind === "text") return processText(node.text, o);
  if (node.kind === "other") return null;
  if ((node.attrs.length > 0 && o.includeAttr) || (o.alwaysUseTextKey && node.attrs.length === 0)) {
    return recurse(node.attrs, node.children, o);
  }
  if (node.children.length === 1) {
    const only = node.children[0];
    if (only.kind === "element") return new Map([[only.name, processNode(only, o)]]);
    return processNode(only, o);
  }
  return recurse(node.attrs, node.children, o);
}

// roxmltree's text where it is known: a document must start with markup (VRL's own case: "true" is
// `unknown token at 1:1`); other errors keep fast-xml-parser's wording.
function parseErrorText(source: string, msg: string): string {
  const lead = /^[ \t\r\n]*/.exec(source)![0];
  if (lead.length < source.length && source[lead.length] !== "<") {
    const lines = lead.split(/\r\n|\r|\n/);
    return `unknown token at ${lines.length}:${lines[lines.length - 1].length + 1}`;
  }
  return msg;
}

// roxmltree refuses a reference to an entity neither XML nor the DTD declares; CDATA, comments, PIs
// and the DOCTYPE are blanked out first (line ends kept, so positions stay right).
function unknownEntity(source: string, entities: Entities): string | null {
  const blank = (m: string) => m.replace(/[^\n]/g, " ");
  const text = source.replace(
    /<!\[CDATA\[[\s\S]*?\]\]>|<!--[\s\S]*?-->|<\?[\s\S]*?\?>|<!DOCTYPE[^[>]*(\[[\s\S]*?\])?\s*>/g,
    blank,
  );
  for (const m of text.matchAll(/&([A-Za-z_:][\w.:-]*);/g)) {
    if (m[1] in entities.names) continue;
    const lines = text.slice(0, m.index).split("\n");
    return `unknown entity reference '${m[1]}' at ${lines.length}:${lines[lines.length - 1].length + 1}`;
  }
  return null;
}

function parseXml(text: string, args: (VrlValue | undefined)[]): VrlValue {
  const [, includeAttr, attrPrefix, textKey, alwaysText, parseBool, parseNull, parseNumber, trim] = args;
  // VRL's `trim` drops white space between tags only (`>\s+?<` → `><`, on the raw text): text with
  // anything else in it keeps its spaces.
  const source = flag(trim, true) ? text.replace(/>\s+?</g, "><") : text;
  const valid = XMLValidator.validate(source);
  if (valid !== true) return fail(`unable to parse xml: ${parseErrorText(source, valid.err.msg)}`);
  const o: XmlOptions = {
    includeAttr: flag(includeAttr, true),
    attrPrefix: str(attrPrefix, "@"),
    textKey: str(textKey, "text"),
    alwaysUseTextKey: flag(alwaysText, false),
    parseBool: flag(parseBool, true),
    parseNull: flag(parseNull, true),
    parseNumber: flag(parseNumber, true),
  };
  // XML reads every line end as "\n" before anything else.
  const normalized = source.replace(/\r\n?/g, "\n");
  const entities = dtdEntities(normalized);
  const unknown = unknownEntity(normalized, entities);
  if (unknown) return fail(`unable to parse xml: ${unknown}`);
  const doc = PARSER.parse(normalized) as OrderedNode[];
  // The document: its element (text outside it is only white space, which roxmltree does not keep).
  const root = toNodes(doc, entities).filter((n) => n.kind === "element");
  return recurse([], root, o);
}

/** XML functions by name. */
export const XML_FNS: Record<string, FnDef> = {
  parse_xml: {
    params: [
      req("value", K.BYTES),
      opt("include_attr", K.BOOLEAN),
      opt("attr_prefix", K.BYTES),
      opt("text_key", K.BYTES),
      opt("always_use_text_key", K.BOOLEAN),
      opt("parse_bool", K.BOOLEAN),
      opt("parse_null", K.BOOLEAN),
      opt("parse_number", K.BOOLEAN),
      opt("trim", K.BOOLEAN),
    ],
    returns: K.OBJECT,
    fallible: true,
    call: (args) => parseXml(args[0] as string, args),
  },
};
