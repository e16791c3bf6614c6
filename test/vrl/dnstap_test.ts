/**
 * `parse_dnstap`: VRL's documented example, and frames built here (protobufjs writes the dnstap protobuf;
 * the DNS messages are assembled byte by byte, with compression pointers) covering answers of the common
 * record types, an update, an unparsable DNS message and bad frames.
 */

import protobuf from "protobufjs";
import { exact, fails, ok, table } from "./harness.ts";

// VRL's documentation example: a BIND ResolverQuery frame with both messages (EDNS cookie; an EDE).
const DOC_FRAME =
  "ChVqYW1lcy1WaXJ0dWFsLU1hY2hpbmUSC0JJTkQgOS4xNi4zGgBy5wEIAxACGAEiEAAAAAAAAAAAAAAAAAAAAAAqECABBQJw" +
  "lAAAAAAAAAAAADAw8+0CODVA7+zq9wVNMU3WNlI2kwIAAAABAAAAAAABCWZhY2Vib29rMQNjb20AAAEAAQAAKQIAAACAAAAMAAoACOxj" +
  "CAG9zVgzWgUDY29tAGAAbQAAAAByZLM4AAAAAQAAAAAAAQJoNQdleGFtcGxlA2NvbQAABgABAAApBNABAUAAADkADwA1AAlubyBTRVAg" +
  "bWF0Y2hpbmcgdGhlIERTIGZvdW5kIGZvciBkbnNzZWMtZmFpbGVkLm9yZy54AQ==";
const DOC_RESULT = JSON.stringify({
  dataType: "Message",
  dataTypeId: 1,
  extraInfo: "",
  messageType: "ResolverQuery",
  messageTypeId: 3,
  queryZone: "com.",
  requestData: {
    fullRcode: 0,
    header: {
      aa: false,
      ad: false,
      anCount: 0,
      arCount: 1,
      cd: false,
      id: 37634,
      nsCount: 0,
      opcode: 0,
      qdCount: 1,
      qr: 0,
      ra: false,
      rcode: 0,
      rd: false,
      tc: false,
    },
    opt: {
      do: true,
      ednsVersion: 0,
      extendedRcode: 0,
      options: [{ optCode: 10, optName: "Cookie", optValue: "7GMIAb3NWDM=" }],
      udpPayloadSize: 512,
    },
    question: [{ class: "IN", domainName: "facebook1.com.", questionType: "A", questionTypeId: 1 }],
    rcodeName: "NoError",
  },
  responseAddress: "2001:502:7094::30",
  responseData: {
    fullRcode: 16,
    header: {
      aa: false,
      ad: false,
      anCount: 0,
      arCount: 1,
      cd: false,
      id: 45880,
      nsCount: 0,
      opcode: 0,
      qdCount: 1,
      qr: 0,
      ra: false,
      rcode: 16,
      rd: false,
      tc: false,
    },
    opt: {
      do: false,
      ede: [{
        extraText: "no SEP matching the DS found for dnssec-failed.org.",
        infoCode: 9,
        purpose: "DNSKEY Missing",
      }],
      ednsVersion: 1,
      extendedRcode: 1,
      udpPayloadSize: 1232,
    },
    question: [{ class: "IN", domainName: "h5.example.com.", questionType: "SOA", questionTypeId: 6 }],
    rcodeName: "BADSIG",
  },
  responsePort: 53,
  serverId: "james-Virtual-Machine",
  serverVersion: "BIND 9.16.3",
  socketFamily: "INET6",
  socketProtocol: "UDP",
  sourceAddress: "::",
  sourcePort: 46835,
  time: 0, // replaced below: the nanosecond time does not fit a JS number
  timePrecision: "ns",
  timestamp: "2020-06-30T03:50:07.920014129Z",
}).replace(`"time":0`, `"time":1593489007920014129`);

const enc = new TextEncoder();
const u16 = (n: number) => [n >> 8, n & 0xff];
const u32 = (n: number) => [...u16(Math.floor(n / 0x10000)), ...u16(n & 0xffff)];
const name = (s: string) => [...s.split(".").filter(Boolean).flatMap((l) => [l.length, ...enc.encode(l)]), 0];
const str = (s: string) => [s.length, ...enc.encode(s)];
const rr = (owner: number[], type: number, ttl: number, data: number[], cls = 1) => [
  ...owner,
  ...u16(type),
  ...u16(cls),
  ...u32(ttl),
  ...u16(data.length),
  ...data,
];

// A NXDOMAIN-flagged authoritative answer for WWW.Example.COM (offset 12), answers pointing back into it.
const RESPONSE = [
  ...[0x12, 0x34, 0x85, 0x83, ...u16(1), ...u16(7), ...u16(1), ...u16(1)],
  ...name("WWW.Example.COM"),
  ...u16(1),
  ...u16(1),
  ...rr([0xc0, 12], 5, 300, [3, ...enc.encode("web"), 0xc0, 16]),
  ...rr(name("web.example.com"), 1, 60, [93, 184, 216, 34]),
  ...rr(name("web.example.com"), 28, 60, [0x20, 0x01, 0x0d, 0xb8, ...Array(11).fill(0), 1]),
  ...rr([0xc0, 16], 15, 3600, [...u16(10), ...name("mail.example.com")]),
  ...rr([0xc0, 16], 16, 3600, [...str('v=spf1 "x"'), ...str("second")]),
  ...rr(name("_sip._tcp.example.com"), 33, 3600, [
    ...u16(1),
    ...u16(2),
    ...u16(5060),
    ...name("sip.example.com"),
  ]),
  ...rr([0xc0, 16], 65280, 10, [1, 2, 3]),
  ...rr([0xc0, 16], 6, 3600, [
    ...name("ns1.example.com"),
    ...name("hostmaster.example.com"),
    ...u32(2024010101),
    ...u32(7200),
    ...u32(3600),
    ...u32(1209600),
    ...u32(300),
  ]),
  ...rr([0], 41, 0, [], 4096),
];

interface FrameFields {
  type: number;
  family?: number;
  addresses?: [number[], number[]];
  queryTime?: number;
  responseTime?: [number, number];
  query?: number[];
  response?: number[];
}

function frame(f: FrameFields, dataType = 1): string {
  const m = protobuf.Writer.create().uint32(8).uint32(f.type);
  if (f.family) m.uint32(16).uint32(f.family).uint32(24).uint32(2);
  if (f.addresses) {
    m.uint32(34).bytes(Uint8Array.from(f.addresses[0])).uint32(42).bytes(Uint8Array.from(f.addresses[1]));
  }
  if (f.family) m.uint32(48).uint32(5353).uint32(56).uint32(53);
  if (f.queryTime) m.uint32(64).uint64(f.queryTime);
  if (f.query) m.uint32(82).bytes(Uint8Array.from(f.query));
  if (f.responseTime) m.uint32(96).uint64(f.responseTime[0]).uint32(109).fixed32(f.responseTime[1]);
  if (f.response) m.uint32(114).bytes(Uint8Array.from(f.response));
  const top = protobuf.Writer.create().uint32(10).bytes(enc.encode("ns1"));
  top.uint32(114).bytes(m.finish()).uint32(120).uint32(dataType);
  return top.finish().toBase64();
}

const AUTH_RESPONSE = frame({
  type: 2,
  family: 1,
  addresses: [[10, 0, 0, 1], [192, 0, 2, 53]],
  queryTime: 1700000000,
  responseTime: [1700000001, 250],
  response: RESPONSE,
});
const rec = (domainName: string, recordType: string, recordTypeId: number, ttl: number, rData: string) => ({
  class: "IN",
  domainName,
  rData,
  recordType,
  recordTypeId,
  ttl,
});
const ANSWERS = [
  rec("www.example.com.", "CNAME", 5, 300, "web.example.com."),
  rec("web.example.com.", "A", 1, 60, "93.184.216.34"),
  rec("web.example.com.", "AAAA", 28, 60, "2001:db8::1"),
  rec("example.com.", "MX", 15, 3600, "10 mail.example.com."),
  rec("example.com.", "TXT", 16, 3600, `"v=spf1 \\"x\\"" "second"`),
  rec("_sip._tcp.example.com.", "SRV", 33, 3600, "1 2 5060 sip.example.com."),
  { class: "IN", domainName: "example.com.", rDataBytes: "AQID", recordTypeId: 65280, ttl: 10 },
];
const SOA = rec(
  "example.com.",
  "SOA",
  6,
  3600,
  "ns1.example.com. hostmaster.example.com. 2024010101 7200 3600 1209600 300",
);

// An update (RFC 2136): zone example.com SOA, one record to add.
const UPDATE = [
  ...[0, 7, 0x28, 0, ...u16(1), ...u16(0), ...u16(1), ...u16(0)],
  ...name("example.com"),
  ...u16(6),
  ...u16(1),
  ...rr(name("new.example.com"), 1, 60, [192, 0, 2, 1]),
];

table("parse_dnstap", [
  exact(`parse_dnstap!("${DOC_FRAME}")`, DOC_RESULT),
  ok(`parse_dnstap!("${DOC_FRAME}").time == 1593489007920014129`, true),
  ok(`r = parse_dnstap!("${AUTH_RESPONSE}", lowercase_hostnames: true); del(r.responseData.header); r`, {
    dataType: "Message",
    dataTypeId: 1,
    messageType: "AuthResponse",
    messageTypeId: 2,
    requestData: { time: 1700000000000000000, timePrecision: "ns" },
    responseAddress: "192.0.2.53",
    responseData: {
      answers: ANSWERS,
      authority: [SOA],
      fullRcode: 3,
      opt: { do: false, ednsVersion: 0, extendedRcode: 0, udpPayloadSize: 4096 },
      question: [{ class: "IN", domainName: "www.example.com.", questionType: "A", questionTypeId: 1 }],
      rcodeName: "NXDomain",
    },
    responsePort: 53,
    serverId: "ns1",
    socketFamily: "INET",
    socketProtocol: "TCP",
    sourceAddress: "10.0.0.1",
    sourcePort: 5353,
    time: 1700000001000000250,
    timePrecision: "ns",
    timestamp: "2023-11-14T22:13:21.000000250Z",
  }),
  ok(`parse_dnstap!("${AUTH_RESPONSE}").responseData.header`, {
    aa: true,
    ad: false,
    anCount: 7,
    arCount: 1,
    cd: false,
    id: 0x1234,
    nsCount: 1,
    opcode: 0,
    qdCount: 1,
    qr: 1,
    ra: true,
    rcode: 3,
    rd: true,
    tc: false,
  }),
  // Without lowercase_hostnames names keep their case (a pointer to the question shows it too).
  ok(`parse_dnstap!("${AUTH_RESPONSE}").responseData.answers[0].domainName`, "WWW.Example.COM."),
  ok(`parse_dnstap!("${frame({ type: 13, query: UPDATE })}").requestData`, {
    fullRcode: 0,
    header: { adCount: 0, id: 7, opcode: 5, prCount: 0, qr: 0, rcode: 0, upCount: 1, zoCount: 1 },
    rcodeName: "NoError",
    update: [rec("new.example.com.", "A", 1, 60, "192.0.2.1")],
    zone: { zClass: "IN", zName: "example.com.", zType: "SOA", zTypeId: 6 },
  }),
  // A DNS message that does not parse: the error and the raw bytes are kept, the rest still parsed.
  ok(
    `r = parse_dnstap!("${frame({ type: 5, query: [1, 2, 3] })}"); [r.messageType, r.error, r.requestData]`,
    [
      "ClientQuery",
      "unexpected end of input reached",
      { rawData: "AQID" },
    ],
  ),
  ok(`f = "${frame({ type: 5, query: [1, 2, 3] })}"; parse_dnstap!(f).rawData == f`, true),
  ok(`r = parse_dnstap!("${frame({ type: 1 }, 2)}"); [r.dataTypeId, r.error]`, [
    2,
    "Unknown dnstap data type: 2",
  ]),
  fails(`parse_dnstap!("not base64!")`, "is not a valid base64 encoded string"),
  fails(`parse_dnstap!(encode_base64("\\n\\u{ff}"))`, "failed to decode Protobuf message"),
]);
