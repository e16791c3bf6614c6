/** IP addresses as bytes and back for the VRL functions: `src/common/ip_address.ts` failing as VRL does. */
import * as address from "../../../src/common/ip_address.ts";
import { fail } from "./def.ts";

/** An address's bytes: 4 for IPv4, 16 for IPv6. */
export const ipBytes = (ip: string): Uint8Array => address.ipBytes(ip, fail);
/** An address as 16 bytes (IPv4 becomes IPv4-mapped IPv6). */
export const ipTo16 = (ip: string): Uint8Array => address.ipTo16(ip, fail);
/** 16 bytes back to text: IPv4-mapped addresses as plain dotted quads. */
export const ipFrom16 = (b: Uint8Array): string => address.ipFrom16(b, fail);
/** 4 or 16 bytes as Rust's `IpAddr` prints them. */
export const ipText = (b: Uint8Array): string => address.ipText(b, fail);
