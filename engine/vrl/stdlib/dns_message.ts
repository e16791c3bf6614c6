/**
 * A decoded DNS message (npm `dns-packet`'s shape) rendered as VRL renders one in `dns_lookup` and
 * `parse_dnstap`: `header`, `question`, `answers`, `authority`, `additional`, `opt` (EDNS), `rcodeName`,
 * `fullRcode`; names are absolute (trailing dot) and `rData` is the record's presentation format.
 */

/** The parts of a dns-packet record this module reads. */
interface Rr {
  name: string;
  type: string;
  class?: string;
  ttl?: number;
  data?: unknown;
  udpPayloadSize?: number;
  extendedRcode?: number;
  ednsVersion?: number;
  flag_do?: boolean;
  options?: { code: number; data?: Uint8Array }[];
}

/** The parts of a dns-packet message this module reads. */
export interface DnsMessage {
  id: number;
  flags: number;
  flag_qr: boolean;
  flag_aa: boolean;
  flag_tc: boolean;
  flag_rd: boolean;
  flag_ra: boolean;
  flag_ad: boolean;
  flag_cd: boolean;
  questions?: { name: string; type: string; class: string }[];
  answers?: Rr[];
  authorities?: Rr[];
  additionals?: Rr[];
}

const RCODES = [
  "NOERROR",
  "FORMERR",
  "SERVFAIL",
  "NXDOMAIN",
  "NOTIMP",
  "REFUSED",
  "YXDOMAIN",
  "YXRRSET",
  "NXRRSET",
];
const RCODES_HIGH: Record<number, string> = { 9: "NOTAUTH", 10: "NOTZONE", 16: "BADVERS" };

const fqdn = (name: string) => (name.endsWith(".") ? name : name + ".");
const hex = (b: Uint8Array) => Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
const quoted = (b: Uint8Array | string) =>
  `"${(typeof b === "string" ? b : new TextDecoder().decode(b)).replace(/(["\\])/g, "\\$1")}"`;

/** A record's data in presentation format (RFC 1035 §5; RFC 3597 for types without one here). */
function rdata(rr: Rr): string {
  const d = rr.data as Record<string, unknown> & Uint8Array;
  switch (rr.type) {
    case "A":
    case "AAAA":
      return String(rr.data);
    case "CNAME":
    case "NS":
    case "PTR":
    case "DNAME":
      return fqdn(String(rr.data));
    case "MX":
      return `${d.preference} ${fqdn(String(d.exchange))}`;
    case "TXT":
      return (Array.isArray(rr.data) ? rr.data : [rr.data]).map(quoted).join(" ");
    case "SOA":
      return `${fqdn(String(d.mname))} ${
        fqdn(String(d.rname))
      } ${d.serial} ${d.refresh} ${d.retry} ${d.expire} ${d.minimum}`;
    case "SRV":
      return `${d.priority} ${d.weight} ${d.port} ${fqdn(String(d.target))}`;
    case "CAA":
      return `${d.flags} ${d.tag} ${quoted(String(d.value))}`;
    default:
      return rr.data instanceof Uint8Array
        ? `\\# ${rr.data.length} ${hex(rr.data)}`
        : JSON.stringify(rr.data);
  }
}

type Lookup = (name: string) => number;

function typeId(type: string, toType: Lookup): number {
  const m = /^UNKNOWN_(\d+)$/.exec(type);
  return m ? Number(m[1]) : toType(type);
}

function record(rr: Rr, toType: Lookup) {
  return {
    class: rr.class ?? "IN",
    domainName: fqdn(rr.name),
    rData: rdata(rr),
    recordType: rr.type,
    recordTypeId: typeId(rr.type, toType),
    ttl: rr.ttl ?? 0,
  };
}

function opt(rr: Rr) {
  return {
    do: !!rr.flag_do,
    ednsVersion: rr.ednsVersion ?? 0,
    extendedRcode: rr.extendedRcode ?? 0,
    options: (rr.options ?? []).map((o) => ({ optCode: o.code, optValue: o.data ? hex(o.data) : "" })),
    udpPayloadSize: rr.udpPayloadSize ?? 0,
  };
}

/** The VRL object for a DNS message; `toType` maps a type mnemonic to its number. */
export function renderDnsMessage(m: DnsMessage, toType: Lookup): Record<string, unknown> {
  const rcode = m.flags & 0xf;
  const additionals = m.additionals ?? [];
  const edns = additionals.find((r) => r.type === "OPT");
  const fullRcode = ((edns?.extendedRcode ?? 0) << 4) | rcode;
  const out: Record<string, unknown> = {
    additional: additionals.filter((r) => r.type !== "OPT").map((r) => record(r, toType)),
    answers: (m.answers ?? []).map((r) => record(r, toType)),
    authority: (m.authorities ?? []).map((r) => record(r, toType)),
    fullRcode,
    header: {
      aa: m.flag_aa,
      ad: m.flag_ad,
      anCount: m.answers?.length ?? 0,
      arCount: additionals.length,
      cd: m.flag_cd,
      id: m.id,
      nsCount: m.authorities?.length ?? 0,
      opcode: (m.flags >> 11) & 0xf,
      qdCount: m.questions?.length ?? 0,
      qr: m.flag_qr,
      ra: m.flag_ra,
      rcode,
      rd: m.flag_rd,
      tc: m.flag_tc,
    },
    question: (m.questions ?? []).map((q) => ({
      class: q.class,
      domainName: fqdn(q.name),
      questionType: q.type,
      questionTypeId: typeId(q.type, toType),
    })),
    rcodeName: RCODES[fullRcode] ?? RCODES_HIGH[fullRcode] ?? `Unknown${fullRcode}`,
  };
  if (edns) out.opt = opt(edns);
  return out;
}
