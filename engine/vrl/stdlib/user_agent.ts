/**
 * `parse_user_agent`: VRL's result shapes (`fast`/`reliable`: family, version, category; `enriched`: the full
 * schema) filled from ua-parser-js (with its bot and CLI extensions). VRL's `fast` mode uses Woothee's names,
 * so browser and OS names are mapped to them (`Internet Explorer`, `Windows XP`, `Mac OSX`, `iPhone`). The
 * library is imported ahead by `loadUaParser()` (awaited with `loadVrlLibraries`), as VRL calls are synchronous.
 */

import type { IResult } from "ua-parser-js";
import { K, objectOf } from "../types.ts";
import type { VrlObject, VrlValue } from "../value.ts";
import { fail, type FnDef, opt, req, str } from "./def.ts";

type UaResult = Pick<IResult, "browser" | "os" | "device">;
type Parse = (ua: string) => UaResult;

let parser: Parse | undefined;

/** Imports ua-parser-js and its extensions once; `parse_user_agent` needs it done. */
export async function loadUaParser(): Promise<void> {
  if (parser) return;
  const [{ UAParser }, ext] = await Promise.all([import("ua-parser-js"), import("ua-parser-js/extensions")]);
  const extensions = [ext.Bots, ext.Crawlers, ext.CLIs, ext.Fetchers, ext.Libraries].filter(Boolean);
  parser = (ua) => new UAParser(ua, extensions as never).getResult() as IResult;
}

function load(): Parse {
  if (!parser) throw new Error("ua-parser-js is not loaded: await loadVrlLibraries() first");
  return parser;
}

const BROWSER_NAMES: Record<string, string> = {
  "IE": "Internet Explorer",
  "IEMobile": "Internet Explorer",
  "Mobile Safari": "Safari",
  "Mobile Chrome": "Chrome",
  "Mobile Firefox": "Firefox",
  "Chrome Headless": "Chrome",
  "Opera Mobi": "Opera",
};

// Windows marketing names by NT version, as Woothee names them.
const WINDOWS_NT: Record<string, string> = {
  "10.0": "Windows 10",
  "6.3": "Windows 8.1",
  "6.2": "Windows 8",
  "6.1": "Windows 7",
  "6.0": "Windows Vista",
  "5.2": "Windows XP",
  "5.1": "Windows XP",
  "5.0": "Windows 2000",
};
const DESKTOP_OS = new Set([
  "Windows",
  "macOS",
  "Linux",
  "Ubuntu",
  "Debian",
  "Fedora",
  "Chrome OS",
  "FreeBSD",
]);

interface Parsed {
  browser: { family: string | null; version: string | null };
  os: { family: string | null; version: string | null };
  category: string | null;
  device: UaResult["device"];
}

function osOf(ua: string, r: UaResult): { family: string | null; version: string | null } {
  const name = r.os.name ?? null;
  if (name === "Windows") {
    const nt = /Windows NT (\d+\.\d+)/.exec(ua)?.[1];
    if (nt) return { family: WINDOWS_NT[nt] ?? "Windows NT", version: `NT ${nt}` };
    return { family: `Windows ${r.os.version ?? ""}`.trim(), version: null };
  }
  if (name === "Linux") return { family: "Linux", version: null };
  if (name === "macOS") return { family: "Mac OSX", version: r.os.version ?? null };
  if (name === "iOS") {
    return { family: r.device.model === "iPad" ? "iPad" : "iPhone", version: r.os.version ?? null };
  }
  return { family: name, version: name ? r.os.version ?? null : null };
}

function categoryOf(r: UaResult): string | null {
  const bt = r.browser.type, dt = r.device.type;
  if (bt === "crawler" || bt === "fetcher") return "crawler";
  if (dt === "mobile" || dt === "tablet" || dt === "wearable") return "smartphone";
  if (dt === "console" || dt === "smarttv" || dt === "embedded" || dt === "xr") return "appliance";
  if (bt === "cli" || bt === "library") return "misc";
  if (r.os.name && DESKTOP_OS.has(r.os.name)) return "pc";
  return null;
}

function parseUa(ua: string): Parsed {
  const r = load()(ua);
  const name = r.browser.name ?? null;
  return {
    browser: {
      family: name ? BROWSER_NAMES[name] ?? name : null,
      version: name ? r.browser.version ?? null : null,
    },
    os: osOf(ua, r),
    category: categoryOf(r),
    device: r.device,
  };
}

const obj = (entries: [string, VrlValue][]): VrlObject => new Map(entries);

/** Version parts `major`, `minor`, … of a dotted version (Windows' `NT 5.1` splits as `NT` and `5.1`). */
function parts(version: string | null, names: string[]): [string, VrlValue][] {
  const nt = version ? /^NT (.+)$/.exec(version) : null;
  const ps = nt ? ["NT", nt[1]] : version ? version.split(".") : [];
  return names.map((n, i) => [n, ps[i] ?? null]);
}

function render(p: Parsed, mode: string): VrlObject {
  if (mode !== "enriched") {
    return obj([
      ["browser", obj([["family", p.browser.family], ["version", p.browser.version]])],
      ["device", obj([["category", p.category]])],
      ["os", obj([["family", p.os.family], ["version", p.os.version]])],
    ]);
  }
  const d = p.device;
  const model = d.model ?? null;
  return obj([
    [
      "browser",
      obj([["family", p.browser.family], ...parts(p.browser.version, ["major", "minor", "patch"]), [
        "version",
        p.browser.version,
      ]]),
    ],
    [
      "device",
      obj([["brand", d.vendor ?? null], ["category", p.category], ["family", model ?? "Other"], [
        "model",
        model,
      ]]),
    ],
    [
      "os",
      obj([["family", p.os.family], ...parts(p.os.version, ["major", "minor", "patch", "patch_minor"]), [
        "version",
        p.os.version,
      ]]),
    ],
  ]);
}

const MODES = ["fast", "reliable", "enriched"];
const S = K.BYTES | K.NULL;

/** The user-agent parser by name. */
export const USER_AGENT_FNS: Record<string, FnDef> = {
  parse_user_agent: {
    params: [req("value", K.BYTES), opt("mode", K.BYTES)],
    returns: (a) => {
      const mode = a[1]?.constant?.value;
      if (mode === "enriched") {
        return {
          kind: K.OBJECT,
          exact: true,
          fields: new Map([
            ["browser", objectOf({ family: S, major: S, minor: S, patch: S, version: S }, true)],
            ["device", objectOf({ brand: S, category: S, family: S, model: S }, true)],
            ["os", objectOf({ family: S, major: S, minor: S, patch: S, patch_minor: S, version: S }, true)],
          ]),
        };
      }
      if (a[1] && !a[1].constant) return { kind: K.OBJECT };
      return {
        kind: K.OBJECT,
        exact: true,
        fields: new Map([
          ["browser", objectOf({ family: S, version: S }, true)],
          ["device", objectOf({ category: S }, true)],
          ["os", objectOf({ family: S, version: S }, true)],
        ]),
      };
    },
    fresh: true,
    check: (a) => {
      const m = a[1]?.constant?.value;
      if (typeof m === "string" && !MODES.includes(m)) return `mode must be one of ${MODES.join(", ")}`;
    },
    fallibleFor: (a) => a[1] !== undefined && !MODES.includes(a[1].constant?.value as string),
    call: ([v, mode]) => {
      const m = str(mode, "fast");
      if (!MODES.includes(m)) return fail(`mode must be one of ${MODES.join(", ")}`);
      return render(parseUa(v as string), m);
    },
  },
};
