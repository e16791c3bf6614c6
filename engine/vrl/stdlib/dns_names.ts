/** The names `parse_dnstap` gives DNS codes: record types, classes, response codes, EDNS options, EDE codes. */

const RECORD_TYPES: Record<number, string> = {
  1: "A",
  2: "NS",
  3: "MD",
  4: "MF",
  5: "CNAME",
  6: "SOA",
  7: "MB",
  8: "MG",
  9: "MR",
  10: "NULL",
  11: "WKS",
  12: "PTR",
  13: "HINFO",
  14: "MINFO",
  15: "MX",
  16: "TXT",
  17: "RP",
  18: "AFSDB",
  19: "X25",
  20: "ISDN",
  21: "RT",
  22: "NSAP",
  23: "NSAP-PTR",
  24: "SIG",
  25: "KEY",
  26: "PX",
  27: "GPOS",
  28: "AAAA",
  29: "LOC",
  30: "NXT",
  31: "EID",
  32: "NIMLOC",
  33: "SRV",
  34: "ATMA",
  35: "NAPTR",
  36: "KX",
  37: "CERT",
  38: "A6",
  39: "DNAME",
  40: "SINK",
  41: "OPT",
  42: "APL",
  43: "DS",
  44: "SSHFP",
  45: "IPSECKEY",
  46: "RRSIG",
  47: "NSEC",
  48: "DNSKEY",
  49: "DHCID",
  50: "NSEC3",
  51: "NSEC3PARAM",
  52: "TLSA",
  53: "SMIMEA",
  55: "HIP",
  56: "NINFO",
  57: "RKEY",
  58: "TALINK",
  59: "CDS",
  60: "CDNSKEY",
  61: "OPENPGPKEY",
  62: "CSYNC",
  63: "ZONEMD",
  64: "SVCB",
  65: "HTTPS",
  99: "SPF",
  100: "UINFO",
  101: "UID",
  102: "GID",
  103: "UNSPEC",
  104: "NID",
  105: "L32",
  106: "L64",
  107: "LP",
  108: "EUI48",
  109: "EUI64",
  249: "TKEY",
  250: "TSIG",
  251: "IXFR",
  252: "AXFR",
  253: "MAILB",
  254: "MAILA",
  255: "ANY",
  256: "URI",
  257: "CAA",
  258: "AVC",
  259: "DOA",
  260: "AMTRELAY",
  32768: "TA",
  32769: "DLV",
};

/** A record type's mnemonic, or undefined for a type without one. */
export function recordTypeName(type: number): string | undefined {
  return RECORD_TYPES[type];
}

/** A class name (`IN`, `CH`, …). */
export function className(c: number): string {
  switch (c) {
    case 1:
      return "IN";
    case 3:
      return "CH";
    case 4:
      return "HS";
    case 254:
      return "NONE";
    case 255:
      return "ANY";
  }
  return `CLASS${c}`;
}

const RCODES: Record<number, string> = {
  0: "NoError",
  1: "FormErr",
  2: "ServFail",
  3: "NXDomain",
  4: "NotImp",
  5: "Refused",
  6: "YXDomain",
  7: "YXRRSet",
  8: "NXRRSet",
  9: "NotAuth",
  10: "NotZone",
  16: "BADSIG",
  17: "BADKEY",
  18: "BADTIME",
  19: "BADMODE",
  20: "BADNAME",
  21: "BADALG",
  22: "BADTRUNC",
  23: "BADCOOKIE",
};

/** The name of a (12-bit) response code, when it has one. */
export function rcodeName(rcode: number): string | undefined {
  return RCODES[rcode];
}

const EDNS_OPTIONS = [
  "Zero",
  "LLQ",
  "UL",
  "NSID",
  undefined,
  "DAU",
  "DHU",
  "N3U",
  "Subnet",
  "Expire",
  "Cookie",
  "Keepalive",
  "Padding",
  "Chain",
];

/** An EDNS option code's name as hickory's `EdnsCode` prints it. */
export function ednsOptionName(code: number): string {
  return EDNS_OPTIONS[code] ?? `Unknown(${code})`;
}

const EDE_PURPOSES = [
  "Other",
  "Unsupported DNSKEY Algorithm",
  "Unsupported DS Digest Type",
  "Stale Answer",
  "Forged Answer",
  "DNSSEC Indeterminate",
  "DNSSEC Bogus",
  "Signature Expired",
  "Signature Not Yet Valid",
  "DNSKEY Missing",
  "RRSIGs Missing",
  "No Zone Key Bit Set",
  "NSEC Missing",
  "Cached Error",
  "Not Ready",
  "Blocked",
  "Censored",
  "Filtered",
  "Prohibited",
  "Stale NXDomain Answer",
  "Not Authoritative",
  "Not Supported",
  "No Reachable Authority",
  "Network Error",
  "Invalid Data",
];

/** The purpose of an extended DNS error code (RFC 8914's registry). */
export function edePurpose(code: number): string | undefined {
  return EDE_PURPOSES[code];
}
