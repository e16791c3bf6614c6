/** `parse_xml`: XML to a VRL object in VRL's shape (attributes prefixed `@`, mixed text under `text`). */

import { XMLParser, XMLValidator } from "fast-xml-parser";
import { K } from "../types.ts";
import type { VrlObject, VrlValue } from "../value.ts";
import { fail, flag, type FnDef, opt, req, str } from "./def.ts";

interface XmlOptions {
  parseBool: boolean;
  parseNull: boolean;
  parseNumber: boolean;
}

function scalar(s: string, o: XmlOptions): VrlValue {
  if (o.parseBool && (s === "true" || s === "false")) return s === "true";
  if (o.parseNull && s === "null") return null;
  if (o.parseNumber && /^-?\d+$/.test(s)) {
    const n = BigInt(s);
    if (n >= -(2n ** 63n) && n < 2n ** 63n) return n;
  }
  if (o.parseNumber && /^-?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(s)) return Number(s);
  return s;
}

/** An attribute's value: VRL keeps it as text (`attr.value().into()`); only element text is typed. */
class AttrText {
  constructor(readonly text: string) {}
}

function convert(v: unknown, o: XmlOptions): VrlValue {
  if (v instanceof AttrText) return v.text;
  if (Array.isArray(v)) return v.map((x) => convert(x, o));
  if (v !== null && typeof v === "object") {
    const out: VrlObject = new Map();
    for (const [k, x] of Object.entries(v)) out.set(k, convert(x, o));
    return out;
  }
  if (typeof v === "string") return v === "" ? null : scalar(v, o);
  return v === undefined ? null : (v as VrlValue);
}

function parseXml(text: string, args: (VrlValue | undefined)[]): VrlValue {
  const [, includeAttr, attrPrefix, textKey, alwaysText, parseBool, parseNull, parseNumber, trim] = args;
  const valid = XMLValidator.validate(text);
  if (valid !== true) return fail(`unable to parse xml: ${valid.err.msg}`);
  const parser = new XMLParser({
    ignoreAttributes: !flag(includeAttr, true),
    attributeNamePrefix: str(attrPrefix, "@"),
    textNodeName: str(textKey, "text"),
    alwaysCreateTextNode: flag(alwaysText, false),
    trimValues: flag(trim, true),
    parseTagValue: false,
    parseAttributeValue: false,
    attributeValueProcessor: (_name: string, value: string) => new AttrText(value),
    ignoreDeclaration: true,
    ignorePiTags: true,
  });
  const o = {
    parseBool: flag(parseBool, true),
    parseNull: flag(parseNull, true),
    parseNumber: flag(parseNumber, true),
  };
  return convert(parser.parse(text), o);
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
