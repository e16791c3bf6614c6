/** Further functions from VRL's standard library: syslog codes, more log formats, YAML, redaction, geo, IP forms. */

import { isIP } from "../../../src/common/ip_address.ts";
import punycode from "node:punycode";
import { domainToASCII, domainToUnicode } from "node:url";
import { parse as parseYaml } from "yaml";
import { utf8Bytes } from "../bytes.ts";
import { K, objectOf } from "../types.ts";
import { kindOf, type VrlObject, VrlRegex, VrlTimestamp, type VrlValue } from "../value.ts";
import { fail, type FnDef, num, opt, req, str } from "./def.ts";
import { SEVERITIES, SYSLOG_LOOSE_FACILITIES } from "./logs.ts";
import { rustMatches } from "./rust_regex.ts";
import { strptime } from "./timefmt.ts";

/** `to_syslog_facility` names (VRL's table: 13 is `security`); `parse_syslog` uses syslog_loose's own names. */
const FACILITY_NAMES = SYSLOG_LOOSE_FACILITIES.toSpliced(13, 3, "security", "console", "solaris-cron");
const GLOG_LEVELS: Record<string, string> = { I: "info", W: "warning", E: "error", F: "fatal" };

/** `parse_glog` and `parse_klog`: the same record shape, klog's header lacks the year. */
function glogFn(klog: boolean): FnDef {
  return {
    params: [req("value", K.BYTES)],
    returns: objectOf({
      file: K.BYTES,
      id: K.INTEGER,
      level: K.BYTES,
      line: K.INTEGER,
      message: K.BYTES,
      timestamp: K.TIMESTAMP,
    }, true),
    fallible: true,
    fresh: true,
    call: ([v]) => glogLike(v as string, klog),
  };
}

function glogLike(line: string, klog: boolean): VrlObject {
  const re = klog
    ? /^([IWEF])(\d{2})(\d{2}) (\d{2}:\d{2}:\d{2}(?:\.\d+)?)\s+(\d+) ([^:\]]+):(\d+)\] ([\s\S]*)$/
    : /^([IWEF])(\d{4})(\d{2})(\d{2}) (\d{2}:\d{2}:\d{2}(?:\.\d+)?)\s+(\d+) ([^:\]]+):(\d+)\] ([\s\S]*)$/;
  const m = re.exec(line.trim());
  if (!m) return fail(`failed parsing ${klog ? "klog" : "glog"} message`);
  const [level, ...rest] = m.slice(1);
  const [y, mo, d, time, id, file, ln, msg] = klog ? [String(new Date().getUTCFullYear()), ...rest] : rest;
  const ts = strptime(`${y}-${mo}-${d} ${time}`, "%Y-%m-%d %H:%M:%S%.f");
  return new Map<string, VrlValue>([
    ["file", file],
    ["id", BigInt(id)],
    ["level", GLOG_LEVELS[level]],
    ["line", BigInt(ln)],
    ["message", msg],
    ["timestamp", ts],
  ]);
}

const VPC_DEFAULT =
  "version account_id interface_id srcaddr dstaddr srcport dstport protocol packets bytes start end action log_status";
const VPC_INTS = new Set([
  "version",
  "srcport",
  "dstport",
  "protocol",
  "packets",
  "bytes",
  "start",
  "end",
  "tcp_flags",
  "traffic_path",
  "pkt_src_aws_service_port",
  "pkt_dst_aws_service_port",
  "sublocation_id",
]);

function parseCef(line: string, translate: boolean): VrlObject {
  const start = line.indexOf("CEF:");
  if (start < 0) return fail("Could not parse whole line successfully");
  const s = line.slice(start + 4);
  const header: string[] = [];
  let cur = "";
  let i = 0;
  for (; i < s.length && header.length < 7; i++) {
    if (s[i] === "\\" && (s[i + 1] === "|" || s[i + 1] === "\\")) {
      cur += s[++i];
    } else if (s[i] === "|") {
      header.push(cur);
      cur = "";
    } else cur += s[i];
  }
  if (header.length < 7) return fail("Could not parse whole line successfully");
  const names = [
    "cefVersion",
    "deviceVendor",
    "deviceProduct",
    "deviceVersion",
    "deviceEventClassId",
    "name",
    "severity",
  ];
  const out: VrlObject = new Map(names.map((n, j) => [n, header[j]]));
  const ext = s.slice(i);
  const keyRe = /(?:^|\s)([\w.\-[\]]+)=/g;
  const keys: { key: string; at: number; valueAt: number }[] = [];
  for (let m = keyRe.exec(ext); m; m = keyRe.exec(ext)) {
    if (m.index > 0 && ext[m.index - 1] === "\\") continue;
    keys.push({ key: m[1], at: m.index, valueAt: m.index + m[0].length });
  }
  // Text before the first `key=` (or an extension with no pair at all) is not CEF.
  if (ext.slice(0, keys[0]?.at ?? ext.length).trim() !== "") {
    return fail("Could not parse whole line successfully");
  }
  keys.forEach((k, j) => {
    const end = j + 1 < keys.length ? keys[j + 1].at : ext.length;
    const v = ext.slice(k.valueAt, end).trim().replace(/\\([=\\])/g, "$1").replace(/\\n/g, "\n").replace(
      /\\r/g,
      "\r",
    );
    out.set(k.key, v);
  });
  return translate ? translateCustomFields(out) : out;
}

// CEF's custom-field pairs: `cs1` holds a value whose name is in `cs1Label`.
const CUSTOM_FIELD =
  /^(cs[1-6]|cn[1-3]|cfp[1-4]|c6a[1-4]|flexString[1-2]|flexNumber[1-2]|deviceCustomDate[1-2]|flexDate1)$/;

/** Replaces each custom field and its label by one entry named by the label. */
function translateCustomFields(o: VrlObject): VrlObject {
  const out: VrlObject = new Map();
  for (const [k, v] of o) {
    if (CUSTOM_FIELD.test(k) && typeof o.get(k + "Label") === "string") {
      out.set(o.get(k + "Label") as string, v);
    } else if (k.endsWith("Label") && CUSTOM_FIELD.test(k.slice(0, -5)) && o.has(k.slice(0, -5))) {
      continue;
    } else out.set(k, v);
  }
  return out;
}

/** YAML data to VRL values: integers stay integers, other numbers floats. */
function yamlToVrl(v: unknown): VrlValue {
  if (typeof v === "bigint") return BigInt.asIntN(64, v);
  if (typeof v === "number") return Number.isFinite(v) ? v : null;
  if (typeof v === "string" || typeof v === "boolean") return v;
  if (v === null || v === undefined) return null;
  if (v instanceof Date) return VrlTimestamp.fromMs(v.getTime());
  if (Array.isArray(v)) return v.map(yamlToVrl);
  if (v instanceof Map) return new Map([...v].map(([k, x]) => [String(k), yamlToVrl(x)]));
  return new Map(Object.entries(v as Record<string, unknown>).map(([k, x]) => [k, yamlToVrl(x)]));
}

function ipv6Groups(s: string): number[] | null {
  if (isIP(s) !== 6) return null;
  let text = s;
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4) {
    const o = v4[1].split(".").map(Number);
    text = text.slice(0, -v4[1].length) + ((o[0] << 8) | o[1]).toString(16) + ":" +
      ((o[2] << 8) | o[3]).toString(16);
  }
  const [head, tail] = text.split("::");
  const h = head ? head.split(":") : [];
  const t = tail !== undefined ? (tail ? tail.split(":") : []) : [];
  const groups = tail !== undefined ? [...h, ...new Array(8 - h.length - t.length).fill("0"), ...t] : h;
  return groups.map((g) => parseInt(g || "0", 16));
}

/** Extra functions by name. */
export const EXTRA_FNS: Record<string, FnDef> = {
  to_syslog_facility: {
    params: [req("value", K.INTEGER)],
    returns: K.BYTES,
    fallible: true,
    call: ([v]) => FACILITY_NAMES[Number(v)] ?? fail(`facility code ${v} not valid`),
  },
  to_syslog_facility_code: {
    params: [req("value", K.BYTES)],
    returns: K.INTEGER,
    fallible: true,
    call: ([v]) => {
      const i = FACILITY_NAMES.indexOf(v as string);
      return i >= 0 ? BigInt(i) : fail(`syslog facility '${v}' not valid`);
    },
  },
  to_syslog_level: {
    params: [req("value", K.INTEGER)],
    returns: K.BYTES,
    fallible: true,
    call: ([v]) => SEVERITIES[Number(v)] ?? fail(`severity level ${v} not valid`),
  },
  to_syslog_severity: {
    params: [req("value", K.BYTES)],
    returns: K.INTEGER,
    fallible: true,
    call: ([v]) => {
      const alias: Record<string, string> = {
        emergency: "emerg",
        critical: "crit",
        error: "err",
        warn: "warning",
      };
      const i = SEVERITIES.indexOf(alias[v as string] ?? (v as string));
      return i >= 0 ? BigInt(i) : fail(`syslog level ${v} not valid`);
    },
  },
  parse_glog: glogFn(false),
  parse_klog: glogFn(true),
  parse_linux_authorization: {
    params: [req("value", K.BYTES)],
    returns: K.OBJECT,
    fallible: true,
    fresh: true,
    call: ([v]) => {
      const m = /^([A-Z][a-z]{2})\s+(\d{1,2}) (\d{2}:\d{2}:\d{2}) (\S+) ([^\s[:]+)(?:\[(\d+)\])?: ([\s\S]*)$/
        .exec((v as string).trim());
      if (!m) return fail("unable to parse input as valid Linux authorization log");
      const year = new Date().getUTCFullYear();
      return new Map<string, VrlValue>([
        ["appname", m[5]],
        ["hostname", m[4]],
        ["message", m[7]],
        ...(m[6] ? [["procid", BigInt(m[6])] as [string, VrlValue]] : []),
        ["timestamp", strptime(`${year} ${m[1]} ${m[2]} ${m[3]}`, "%Y %b %d %H:%M:%S")],
      ]);
    },
  },
  parse_aws_vpc_flow_log: {
    params: [req("value", K.BYTES), opt("format", K.BYTES)],
    returns: K.OBJECT,
    fallible: true,
    fresh: true,
    call: ([v, f]) => {
      const names = str(f, VPC_DEFAULT).split(/\s+/);
      const values = (v as string).trim().split(/\s+/);
      if (names.length !== values.length) {
        return fail(`Log should have ${names.length} fields, got ${values.length}`);
      }
      const out: VrlObject = new Map();
      names.forEach((n, i) => {
        const x = values[i];
        out.set(n, x === "-" ? null : VPC_INTS.has(n) && /^\d+$/.test(x) ? BigInt(x) : x);
      });
      return out;
    },
  },
  parse_cef: {
    params: [req("value", K.BYTES), opt("translate_custom_fields", K.BOOLEAN)],
    returns: K.OBJECT,
    fallible: true,
    fresh: true,
    call: ([v, t]) => parseCef(v as string, t === true),
  },
  parse_yaml: {
    params: [req("value", K.BYTES)],
    returns: K.JSON | K.TIMESTAMP,
    fallible: true,
    fresh: true,
    call: ([v]) => {
      try {
        return yamlToVrl(parseYaml(v as string, { intAsBigInt: true }));
      } catch (e) {
        return fail(`unable to parse yaml: ${(e as Error).message}`);
      }
    },
  },
  replace_with: {
    params: [req("value", K.BYTES), req("pattern", K.REGEX), opt("count", K.INTEGER)],
    returns: K.BYTES,
    closure: () => [objectOf({ string: K.BYTES, captures: K.ARRAY, start: K.INTEGER, end: K.INTEGER })],
    closureReturns: K.BYTES,
    call: ([v, p, c], f) => {
      const s = v as string;
      const limit = num(c, -1);
      let out = "", last = 0, n = 0;
      for (const m of rustMatches(s, (p as VrlRegex).re)) {
        if (limit >= 0 && n++ >= limit) break;
        // `start` and `end` are byte offsets, as the regex crate gives them.
        const start = utf8Bytes(s.slice(0, m.index)).length;
        const match: VrlObject = new Map<string, VrlValue>([
          ["string", m[0]],
          ["captures", m.slice(1).map((x) => (x === undefined ? null : x))],
          ["start", BigInt(start)],
          ["end", BigInt(start + utf8Bytes(m[0]).length)],
        ]);
        for (const [k, x] of Object.entries(m.groups ?? {})) match.set(k, x ?? null);
        const r = f!(match);
        if (typeof r !== "string") return fail(`replace_with closure must return a string, got ${kindOf(r)}`);
        out += s.slice(last, m.index) + r;
        last = m.index + m[0].length;
      }
      return out + s.slice(last);
    },
  },
  haversine: {
    params: [
      req("latitude1", K.NUMBER),
      req("longitude1", K.NUMBER),
      req("latitude2", K.NUMBER),
      req("longitude2", K.NUMBER),
      opt("measurement_unit", K.BYTES),
    ],
    returns: objectOf({ distance: K.FLOAT, bearing: K.FLOAT }, true),
    call: ([a1, o1, a2, o2, u]) => {
      const rad = (d: VrlValue | undefined) => (Number(d) * Math.PI) / 180;
      const [la1, lo1, la2, lo2] = [rad(a1), rad(o1), rad(a2), rad(o2)];
      const h = Math.sin((la2 - la1) / 2) ** 2 +
        Math.cos(la1) * Math.cos(la2) * Math.sin((lo2 - lo1) / 2) ** 2;
      const km = 2 * 6371.0088 * Math.asin(Math.sqrt(h));
      const y = Math.sin(lo2 - lo1) * Math.cos(la2);
      const x = Math.cos(la1) * Math.sin(la2) - Math.sin(la1) * Math.cos(la2) * Math.cos(lo2 - lo1);
      const bearing = ((Math.atan2(y, x) * 180) / Math.PI + 360) % 360;
      // VRL converts with 0.6213712 miles per kilometre (its docs: 974.6348468 miles for 1568.5227233 km).
      const distance = str(u, "kilometers") === "miles" ? km * 0.6213712 : km;
      return new Map<string, VrlValue>([["bearing", Math.round(bearing * 1e3) / 1e3], [
        "distance",
        Math.round(distance * 1e7) / 1e7,
      ]]);
    },
  },
  encode_punycode: {
    params: [req("value", K.BYTES), opt("validate", K.BOOLEAN)],
    returns: K.BYTES,
    fallible: true,
    call: ([v, validate]) => {
      const s = v as string;
      // Without validation each label is punycoded as written (case kept), as the `idna` crate does.
      if (validate === false) {
        return s.split(".").map((
          l,
        ) => ([...l].every((ch) => ch.charCodeAt(0) <= 0x7f) ? l : "xn--" + punycode.encode(l))).join(
          ".",
        );
      }
      if (![...s].some((ch) => ch.charCodeAt(0) > 0x7f)) return s.toLowerCase();
      const out = domainToASCII(s);
      return out || fail("unable to encode to punycode");
    },
  },
  decode_punycode: {
    params: [req("value", K.BYTES), opt("validate", K.BOOLEAN)],
    returns: K.BYTES,
    fallible: true,
    call: ([v, validate]) => {
      const s = v as string;
      if (validate === false) {
        return s.split(".").map((l) => {
          if (!l.toLowerCase().startsWith("xn--")) return l;
          try {
            return punycode.decode(l.slice(4));
          } catch {
            return fail("unable to decode punycode");
          }
        }).join(".");
      }
      const out = domainToUnicode(s);
      return out || fail("unable to decode punycode");
    },
  },
  ip_to_ipv6: {
    params: [req("value", K.BYTES)],
    returns: K.BYTES,
    fallible: true,
    call: ([v]) => {
      const s = v as string;
      if (isIP(s) === 6) return s;
      if (isIP(s) === 4) return `::ffff:${s}`;
      return fail("unable to parse IP address: invalid IP address syntax");
    },
  },
  ipv6_to_ipv4: {
    params: [req("value", K.BYTES)],
    returns: K.BYTES,
    fallible: true,
    call: ([v]) => {
      const s = v as string;
      if (isIP(s) === 4) return s;
      const g = ipv6Groups(s);
      if (!g) return fail("unable to parse IP address: invalid IP address syntax");
      const mapped = g.slice(0, 5).every((x) => x === 0) && (g[5] === 0xffff || g[5] === 0);
      if (!mapped) return fail(`IPV6 address ${s} is not compatible with IPV4`);
      return [g[6] >> 8, g[6] & 255, g[7] >> 8, g[7] & 255].join(".");
    },
  },
  tag_types_externally: {
    params: [req("value", K.ANY)],
    returns: K.ANY & ~K.REGEX,
    call: ([v]) => {
      const tag = (x: VrlValue): VrlValue => {
        if (x === null) return null;
        if (x instanceof Map) return new Map([...x].map(([k, y]) => [k, tag(y)]));
        if (Array.isArray(x)) return x.map(tag);
        const kind = kindOf(x);
        return new Map([[kind === "regex" ? "regex" : kind, x instanceof VrlRegex ? x.source : x]]);
      };
      return tag(v!);
    },
  },
};
