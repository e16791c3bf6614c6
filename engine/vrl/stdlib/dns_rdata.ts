/**
 * Record data as text, the way Vector's dnstap parser renders it (`rData`): the presentation format of
 * the common types. Other types are kept as raw bytes (`rDataBytes`, base64 in the output).
 */

import type { DnsReader } from "./dns_wire.ts";
import { ipText } from "./ip.ts";

const hex = (b: Uint8Array) => [...b].map((x) => x.toString(16).padStart(2, "0")).join("").toUpperCase();
const latin = (b: Uint8Array) => new TextDecoder().decode(b);
// Vector's escape_string_for_text_representation: backslashes and double quotes only.
const quoted = (b: Uint8Array) => `"${latin(b).replaceAll("\\", "\\\\").replaceAll('"', '\\"')}"`;

function characterStrings(r: DnsReader, end: number): Uint8Array[] {
  const out: Uint8Array[] = [];
  while (r.pos < end) out.push(r.take(r.u8()));
  return out;
}

/** Renders the data of a record of `type` occupying the reader's bytes up to `end`. */
export function recordData(
  type: number,
  r: DnsReader,
  end: number,
): { rdata?: string; rdataBytes?: Uint8Array } {
  const text = (rdata: string) => ({ rdata });
  switch (type) {
    case 1: // A
    case 28: // AAAA
      if (end - r.pos !== (type === 1 ? 4 : 16)) break;
      return text(ipText(r.take(end - r.pos)));
    case 2: // NS
    case 5: // CNAME
    case 12: // PTR
    case 39: // DNAME
      return text(r.name());
    case 15: // MX
      return text(`${r.u16()} ${r.name()}`);
    case 6: // SOA
      return text(`${r.name()} ${r.name()} ${r.u32()} ${r.u32()} ${r.u32()} ${r.u32()} ${r.u32()}`);
    case 33: // SRV
      return text(`${r.u16()} ${r.u16()} ${r.u16()} ${r.name()}`);
    case 16: // TXT
    case 99: // SPF
      return text(characterStrings(r, end).map(quoted).join(" "));
    case 13: // HINFO
      return text(characterStrings(r, end).map(quoted).join(" "));
    case 10: // NULL
      return text(r.take(end - r.pos).toBase64());
    case 257: { // CAA
      const flags = r.u8();
      const tag = latin(r.take(r.u8()));
      return text(`${flags & 0x80 ? 1 : 0} ${tag} "${latin(r.take(end - r.pos))}"`);
    }
    case 44: // SSHFP
      return text(`${r.u8()} ${r.u8()} ${hex(r.take(end - r.pos))}`);
    case 52: // TLSA
      return text(`${r.u8()} ${r.u8()} ${r.u8()} ${hex(r.take(end - r.pos))}`);
  }
  return { rdataBytes: r.take(end - r.pos) };
}
