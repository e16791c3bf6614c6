/** `crc`: every catalogue algorithm gives its CRC RevEng check value for "123456789", as decimal text. */

import { CRC_ALGORITHMS } from "../../engine/vrl/stdlib/crc.ts";
import { fails, ok, rejects, table } from "./harness.ts";

table(
  "crc check values",
  Object.entries(CRC_ALGORITHMS).map(([name, params]) =>
    ok(`crc("123456789", algorithm: "${name}")`, BigInt("0x" + params[6]).toString())
  ),
);

table("crc algorithms", [
  ok(`crc("foo")`, "2356372769"),
  ok(`crc("foo", algorithm: "CRC_32_CKSUM")`, "4271552933"),
  ok(`crc("", algorithm: "CRC_64_XZ")`, "0"),
  // A constant known algorithm is infallible; an unknown or dynamic one is checked at run time.
  rejects(`crc("foo", algorithm: "CRC_99")`, "E100"),
  fails(`crc!("foo", algorithm: "CRC_99")`, "Invalid CRC algorithm: CRC_99"),
  ok(`crc!("foo", algorithm: .a)`, "4271552933", { a: "CRC_32_CKSUM" }),
]);
