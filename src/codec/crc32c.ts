/** CRC-32C (Castagnoli), the checksum of Prometheus' streamed remote-read frames. */

/*
 * Built at the first checksum, not when the module loads: the 2048-step loop at start got V8's
 * optimizing compiler going (OSR) in some starts, which left ~2.6 MB more of Deno's code resident in
 * an idle server (measured with --trace-osr and /proc/<pid>/smaps).
 */
let table: Uint32Array | undefined;

function crcTable(): Uint32Array {
  if (table) return table;
  table = new Uint32Array(256);
  for (let i = 0; i < 256; i++) {
    let c = i;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0x82f63b78 : c >>> 1;
    table[i] = c >>> 0;
  }
  return table;
}

/** The CRC-32C of `bytes` as an unsigned 32-bit number. */
export function crc32c(bytes: Uint8Array): number {
  const t = crcTable();
  let c = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) c = t[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
