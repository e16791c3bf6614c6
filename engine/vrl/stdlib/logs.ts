/** Log-line parsers: syslog (RFC 5424 / 3164), common log, Apache and Nginx formats. */

import { K, objectOf } from "../types.ts";
import { type VrlObject, VrlTimestamp, type VrlValue } from "../value.ts";
import { fail, type FnDef, opt, req, str } from "./def.ts";
import { parseRfc3339, strptime } from "./timefmt.ts";

/** Facility names `parse_syslog` reports (the syslog_loose crate's: 13–15 are audit, alert, clockd). */
export const SYSLOG_LOOSE_FACILITIES = [
  "kern",
  "user",
  "mail",
  "daemon",
  "auth",
  "syslog",
  "lpr",
  "news",
  "uucp",
  "cron",
  "authpriv",
  "ftp",
  "ntp",
  "audit",
  "alert",
  "clockd",
  "local0",
  "local1",
  "local2",
  "local3",
  "local4",
  "local5",
  "local6",
  "local7",
];
/** Syslog severity keywords by code, shared by `parse_syslog` and `to_syslog_level`. */
export const SEVERITIES = ["emerg", "alert", "crit", "err", "warning", "notice", "info", "debug"];

const intOrString = (s: string): VrlValue => (/^\d+$/.test(s) ? BigInt(s) : s);

/** Sets `k` unless the value is absent, empty or `-` (the log formats' "no value"). */
export function putIf(o: VrlObject, k: string, v: VrlValue | undefined): void {
  if (v !== undefined && v !== null && v !== "-" && v !== "") o.set(k, v);
}

function parseStructuredData(sd: string, o: VrlObject): void {
  const re = /\[([^\s\]]+)((?:\s+[^\s=\]]+\s*=\s*"(?:[^"\\]|\\.)*")*)\s*\]/g;
  for (let m = re.exec(sd); m; m = re.exec(sd)) {
    const params: VrlObject = new Map();
    const pre = /([^\s=\]]+)\s*=\s*"((?:[^"\\]|\\.)*)"/g;
    for (let p = pre.exec(m[2]); p; p = pre.exec(m[2])) params.set(p[1], p[2].replace(/\\(["\\\]])/g, "$1"));
    o.set(m[1], params);
  }
}

const RFC5424 =
  /^(?:<(\d{1,3})>)?(\d{1,2})\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)\s*((?:-|(?:\[(?:[^\]"\\]|"(?:[^"\\]|\\.)*"|\\.)*\])+))?\s?([\s\S]*)$/;
const RFC3164 =
  /^(?:<(\d{1,3})>)?\s*([A-Z][a-z]{2}\s+\d{1,2}\s+(?:\d{4}\s+)?\d{2}:\d{2}:\d{2}|\d{4}-\d{2}-\d{2}T\S+)\s+(?:(\S+)\s+)?([^\s:[]+)(?:\[(\w+)\])?:\s?([\s\S]*)$/;
const RFC3164_NOTAG =
  /^(?:<(\d{1,3})>)?\s*([A-Z][a-z]{2}\s+\d{1,2}\s+(?:\d{4}\s+)?\d{2}:\d{2}:\d{2})\s+(\S+)\s+([\s\S]*)$/;

function bsdTimestamp(s: string): VrlTimestamp | null {
  const iso = parseRfc3339(s);
  if (iso) return iso;
  const parts = s.split(/\s+/);
  const hasYear = parts.length === 4;
  const year = hasYear ? Number(parts[2]) : new Date().getUTCFullYear();
  try {
    const ts = strptime(`${year} ${parts[0]} ${parts[1]} ${parts[hasYear ? 3 : 2]}`, "%Y %b %d %H:%M:%S");
    // syslog_loose: a date in the future (beyond a day) belongs to the previous year.
    if (!hasYear && ts.ms > Date.now() + 86_400_000) {
      return strptime(`${year - 1} ${parts[0]} ${parts[1]} ${parts[2]}`, "%Y %b %d %H:%M:%S");
    }
    return ts;
  } catch {
    return null;
  }
}

function setPri(o: VrlObject, pri: string | undefined): void {
  if (pri === undefined) return;
  const n = Number(pri);
  if (n > 191) return;
  o.set("facility", SYSLOG_LOOSE_FACILITIES[n >> 3]);
  o.set("severity", SEVERITIES[n & 7]);
}

/** Parses a syslog line into VRL's `parse_syslog` object. */
export function parseSyslog(line: string): VrlObject {
  const text = line.trim();
  const o: VrlObject = new Map();
  const m5 = RFC5424.exec(text);
  if (m5 && /^\d/.test(m5[3]) && parseRfc3339(m5[3]) !== null || m5 && m5[3] === "-") {
    const [, pri, version, ts, host, app, procid, msgid, sd, msg] = m5!;
    setPri(o, pri);
    o.set("version", BigInt(version));
    if (ts !== "-") o.set("timestamp", parseRfc3339(ts)!);
    putIf(o, "hostname", host);
    putIf(o, "appname", app);
    if (procid !== "-") o.set("procid", intOrString(procid));
    putIf(o, "msgid", msgid);
    if (sd && sd !== "-") parseStructuredData(sd, o);
    o.set("message", msg ?? "");
    return o;
  }
  const m3 = RFC3164.exec(text);
  if (m3) {
    const [, pri, ts, host, tag, pid, msg] = m3;
    const t = bsdTimestamp(ts);
    if (t) {
      setPri(o, pri);
      o.set("timestamp", t);
      putIf(o, "hostname", host);
      putIf(o, "appname", tag);
      if (pid) o.set("procid", intOrString(pid));
      o.set("message", msg);
      return o;
    }
  }
  const m0 = RFC3164_NOTAG.exec(text);
  if (m0) {
    const t = bsdTimestamp(m0[2]);
    if (t) {
      setPri(o, m0[1]);
      o.set("timestamp", t);
      putIf(o, "hostname", m0[3]);
      o.set("message", m0[4]);
      return o;
    }
  }
  return fail("unable to parse input as valid syslog message");
}

/** Parses a log timestamp with `fmt`, failing in VRL's words. */
export function parseTs(s: string, fmt: string, what: string): VrlTimestamp {
  try {
    return strptime(s, fmt);
  } catch {
    return fail(`failed parsing timestamp ${s} using format ${fmt}: ${what}`);
  }
}

// VRL's `REGEX_APACHE_COMMON_LOG` / `..._COMBINED_LOG` (`log_util.rs`): each field may be `-` (then absent),
// fields are separated by any whitespace, the request is split into method, path and protocol when it has that
// shape, and nothing may follow the last field.
const ANY = String.raw`[\s\S]*?`;
const CLF_PREFIX = String.raw`^\s*(-|(?<host>.*?))\s+(-|(?<identity>.*?))\s+(-|(?<user>.*?))\s+` +
  String.raw`(-|\[(-|(?<timestamp>[^\[]*))\])\s+` +
  String
    .raw`(-|"(-|(\s*(?<message>((?<method>\w+)\s+(?<path>${ANY})\s+(?<protocol>${ANY})\s*|${ANY}))\s*))")\s+` +
  String.raw`(-|(?<status>\d+))\s+(-|(?<size>\d+))`;
const QUOTED = (name: string) => String.raw`(-|"(-|(\s*(?<${name}>${ANY})))")`;
const CLF = new RegExp(CLF_PREFIX + String.raw`\s*$`);
const COMBINED = new RegExp(
  CLF_PREFIX + String.raw`\s+` + QUOTED("referrer") + String.raw`\s+` + QUOTED("agent") + String.raw`\s*$`,
);

function commonLog(line: string, tsFmt: string, combined: boolean): VrlObject {
  const g = (combined ? COMBINED : CLF).exec(line)?.groups;
  if (!g) return fail(`failed parsing ${combined ? "combined" : "common"} log line`);
  const o: VrlObject = new Map();
  for (const k of ["host", "identity", "user"]) if (g[k] !== undefined) o.set(k, g[k]);
  if (g.timestamp !== undefined) o.set("timestamp", parseTs(g.timestamp, tsFmt, "invalid timestamp"));
  for (const k of ["message", "method", "path", "protocol"]) if (g[k] !== undefined) o.set(k, g[k]);
  if (g.status !== undefined) o.set("status", BigInt(g.status));
  if (g.size !== undefined) o.set("size", BigInt(g.size));
  if (g.referrer !== undefined) o.set("referrer", g.referrer);
  if (g.agent !== undefined) o.set("agent", g.agent);
  return o;
}

const APACHE_ERROR =
  /^\[([^\]]+)\] \[(?:([^:\]]+):)?([^\]]+)\](?: \[pid (\d+)(?::tid (\d+))?\])?(?: \[client ([^\]:]+|\[[^\]]+\]|[0-9a-fA-F:]+)(?::(\d+))?\])? ([\s\S]*)$/;

function apacheError(line: string, tsFmt: string): VrlObject {
  const m = APACHE_ERROR.exec(line.trim());
  if (!m) return fail("failed parsing error log line");
  const o: VrlObject = new Map();
  o.set("timestamp", parseTs(m[1], tsFmt, "invalid timestamp"));
  putIf(o, "module", m[2]);
  o.set("severity", m[3]);
  if (m[4]) o.set("pid", BigInt(m[4]));
  if (m[5]) o.set("thread", m[5]);
  putIf(o, "client", m[6]);
  if (m[7]) o.set("port", BigInt(m[7]));
  o.set("message", m[8]);
  return o;
}

const B = K.BYTES, BN = K.BYTES | K.NULL, IN = K.INTEGER | K.NULL, TN = K.TIMESTAMP | K.NULL;

const SYSLOG_TYPE = objectOf({
  message: B,
  hostname: BN,
  severity: BN,
  facility: BN,
  appname: BN,
  msgid: BN,
  timestamp: TN,
  procid: B | K.INTEGER | K.NULL,
  version: IN,
});
const COMMON_FIELDS = {
  host: BN,
  identity: BN,
  user: BN,
  timestamp: TN,
  message: BN,
  method: BN,
  path: BN,
  protocol: BN,
  status: IN,
  size: IN,
};
const COMMON_TYPE = objectOf(COMMON_FIELDS, true);
const APACHE_TYPE = objectOf({
  ...COMMON_FIELDS,
  referrer: BN,
  agent: BN,
  module: BN,
  severity: BN,
  pid: IN,
  thread: BN,
  client: BN,
  port: IN,
}, true);
/** Log-format functions by name. */
export const LOG_FNS: Record<string, FnDef> = {
  parse_syslog: {
    params: [req("value", K.BYTES)],
    returns: SYSLOG_TYPE,
    fallible: true,
    fresh: true,
    call: ([v]) => parseSyslog(v as string),
  },
  parse_common_log: {
    params: [req("value", K.BYTES), opt("timestamp_format", K.BYTES)],
    returns: COMMON_TYPE,
    fallible: true,
    fresh: true,
    call: ([v, f]) => commonLog(v as string, str(f, "%d/%b/%Y:%T %z"), false),
  },
  parse_apache_log: {
    params: [req("value", K.BYTES), req("format", K.BYTES), opt("timestamp_format", K.BYTES)],
    returns: APACHE_TYPE,
    fallible: true,
    fresh: true,
    check: (a) => {
      const f = a[1]?.constant?.value;
      if (typeof f === "string" && !["common", "combined", "error"].includes(f)) {
        return `unknown format "${f}"`;
      }
    },
    call: ([v, f, tf]) => {
      if (f === "error") {
        if (tf !== undefined) return apacheError(v as string, str(tf, ""));
        // VRL's one default is `%d/%b/%Y:%T %z`; Apache's own error-log stamp is accepted as well.
        try {
          return apacheError(v as string, "%d/%b/%Y:%T %z");
        } catch (first) {
          try {
            return apacheError(v as string, "%a %b %d %H:%M:%S%.f %Y");
          } catch {
            throw first;
          }
        }
      }
      return commonLog(v as string, str(tf, "%d/%b/%Y:%T %z"), f === "combined");
    },
  },
};
