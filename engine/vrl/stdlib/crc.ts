/**
 * `crc(value, algorithm)`: the CRC algorithms of the `crc` crate's catalogue VRL names (Rocksoft parameters
 * from the CRC RevEng catalogue, each checked against its catalogue check value of "123456789" in
 * test/vrl/crc_test.ts). The checksum is returned as decimal text, as VRL does (CRC-64 and CRC-82 values do not
 * fit an integer).
 */

/** Width, polynomial, initial value, reflected input/output, final XOR (hex), and the check value (hex). */
type Params = [
  width: number,
  poly: string,
  init: string,
  refin: boolean,
  refout: boolean,
  xorout: string,
  check: string,
];

const F8 = "ff", F16 = "ffff", F32 = "ffffffff", F64 = "ffffffffffffffff";

/** The catalogue by VRL's algorithm names. */
export const CRC_ALGORITHMS: Record<string, Params> = {
  CRC_3_GSM: [3, "3", "0", false, false, "7", "4"],
  CRC_4_G_704: [4, "3", "0", true, true, "0", "7"],
  CRC_5_USB: [5, "05", "1f", true, true, "1f", "19"],
  CRC_8_AUTOSAR: [8, "2f", F8, false, false, F8, "df"],
  CRC_8_BLUETOOTH: [8, "a7", "0", true, true, "0", "26"],
  CRC_8_CDMA2000: [8, "9b", F8, false, false, "0", "da"],
  CRC_8_DARC: [8, "39", "0", true, true, "0", "15"],
  CRC_8_DVB_S2: [8, "d5", "0", false, false, "0", "bc"],
  CRC_8_GSM_A: [8, "1d", "0", false, false, "0", "37"],
  CRC_8_GSM_B: [8, "49", "0", false, false, F8, "94"],
  CRC_8_HITAG: [8, "1d", F8, false, false, "0", "b4"],
  CRC_8_I_432_1: [8, "07", "0", false, false, "55", "a1"],
  CRC_8_I_CODE: [8, "1d", "fd", false, false, "0", "7e"],
  CRC_8_LTE: [8, "9b", "0", false, false, "0", "ea"],
  CRC_8_MAXIM_DOW: [8, "31", "0", true, true, "0", "a1"],
  CRC_8_MIFARE_MAD: [8, "1d", "c7", false, false, "0", "99"],
  CRC_8_NRSC_5: [8, "31", F8, false, false, "0", "f7"],
  CRC_8_OPENSAFETY: [8, "2f", "0", false, false, "0", "3e"],
  CRC_8_ROHC: [8, "07", F8, true, true, "0", "d0"],
  CRC_8_SAE_J1850: [8, "1d", F8, false, false, F8, "4b"],
  CRC_8_SMBUS: [8, "07", "0", false, false, "0", "f4"],
  CRC_8_TECH_3250: [8, "1d", F8, true, true, "0", "97"],
  CRC_8_WCDMA: [8, "9b", "0", true, true, "0", "25"],
  CRC_16_ARC: [16, "8005", "0", true, true, "0", "bb3d"],
  CRC_16_CDMA2000: [16, "c867", F16, false, false, "0", "4c06"],
  CRC_16_CMS: [16, "8005", F16, false, false, "0", "aee7"],
  CRC_16_DDS_110: [16, "8005", "800d", false, false, "0", "9ecf"],
  CRC_16_DECT_R: [16, "0589", "0", false, false, "0001", "007e"],
  CRC_16_DECT_X: [16, "0589", "0", false, false, "0", "007f"],
  CRC_16_DNP: [16, "3d65", "0", true, true, F16, "ea82"],
  CRC_16_EN_13757: [16, "3d65", "0", false, false, F16, "c2b7"],
  CRC_16_GENIBUS: [16, "1021", F16, false, false, F16, "d64e"],
  CRC_16_GSM: [16, "1021", "0", false, false, F16, "ce3c"],
  CRC_16_IBM_3740: [16, "1021", F16, false, false, "0", "29b1"],
  CRC_16_IBM_SDLC: [16, "1021", F16, true, true, F16, "906e"],
  CRC_16_ISO_IEC_14443_3_A: [16, "1021", "c6c6", true, true, "0", "bf05"],
  CRC_16_KERMIT: [16, "1021", "0", true, true, "0", "2189"],
  CRC_16_LJ1200: [16, "6f63", "0", false, false, "0", "bdf4"],
  CRC_16_M17: [16, "5935", F16, false, false, "0", "772b"],
  CRC_16_MAXIM_DOW: [16, "8005", "0", true, true, F16, "44c2"],
  CRC_16_MCRF4XX: [16, "1021", F16, true, true, "0", "6f91"],
  CRC_16_MODBUS: [16, "8005", F16, true, true, "0", "4b37"],
  CRC_16_NRSC_5: [16, "080b", F16, true, true, "0", "a066"],
  CRC_16_OPENSAFETY_A: [16, "5935", "0", false, false, "0", "5d38"],
  CRC_16_OPENSAFETY_B: [16, "755b", "0", false, false, "0", "20fe"],
  CRC_16_PROFIBUS: [16, "1dcf", F16, false, false, F16, "a819"],
  CRC_16_RIELLO: [16, "1021", "b2aa", true, true, "0", "63d0"],
  CRC_16_SPI_FUJITSU: [16, "1021", "1d0f", false, false, "0", "e5cc"],
  CRC_16_T10_DIF: [16, "8bb7", "0", false, false, "0", "d0db"],
  CRC_16_TELEDISK: [16, "a097", "0", false, false, "0", "0fb3"],
  CRC_16_TMS37157: [16, "1021", "89ec", true, true, "0", "26b1"],
  CRC_16_UMTS: [16, "8005", "0", false, false, "0", "fee8"],
  CRC_16_USB: [16, "8005", F16, true, true, F16, "b4c8"],
  CRC_16_XMODEM: [16, "1021", "0", false, false, "0", "31c3"],
  CRC_24_OPENPGP: [24, "864cfb", "b704ce", false, false, "0", "21cf02"],
  CRC_32_AIXM: [32, "814141ab", "0", false, false, "0", "3010bf7f"],
  CRC_32_AUTOSAR: [32, "f4acfb13", F32, true, true, F32, "1697d06a"],
  CRC_32_BASE91_D: [32, "a833982b", F32, true, true, F32, "87315576"],
  CRC_32_BZIP2: [32, "04c11db7", F32, false, false, F32, "fc891918"],
  CRC_32_CD_ROM_EDC: [32, "8001801b", "0", true, true, "0", "6ec2edc4"],
  CRC_32_CKSUM: [32, "04c11db7", "0", false, false, F32, "765e7680"],
  CRC_32_ISCSI: [32, "1edc6f41", F32, true, true, F32, "e3069283"],
  CRC_32_ISO_HDLC: [32, "04c11db7", F32, true, true, F32, "cbf43926"],
  CRC_32_JAMCRC: [32, "04c11db7", F32, true, true, "0", "340bc6d9"],
  CRC_32_MEF: [32, "741b8cd7", F32, true, true, "0", "d2c22f51"],
  CRC_32_MPEG_2: [32, "04c11db7", F32, false, false, "0", "0376e6e7"],
  CRC_32_XFER: [32, "000000af", "0", false, false, "0", "bd0be338"],
  CRC_64_ECMA_182: [64, "42f0e1eba9ea3693", "0", false, false, "0", "6c40df5f0b497347"],
  CRC_64_GO_ISO: [64, "1b", F64, true, true, F64, "b90956c775a41001"],
  CRC_64_MS: [64, "259c84cba6426349", F64, true, true, "0", "75d4b74f024eceea"],
  CRC_64_REDIS: [64, "ad93d23594c935a9", "0", true, true, "0", "e9c6d914c4b8d9ca"],
  CRC_64_WE: [64, "42f0e1eba9ea3693", F64, false, false, F64, "62ec59e3f1a4f00a"],
  CRC_64_XZ: [64, "42f0e1eba9ea3693", F64, true, true, F64, "995dc9bbdf1939fa"],
  CRC_82_DARC: [82, "0308c0111011401440411", "0", true, true, "0", "09ea83f625023801fd612"],
};

const reflect = (v: bigint, width: number): bigint => {
  let r = 0n;
  for (let k = 0; k < width; k++, v >>= 1n) r = (r << 1n) | (v & 1n);
  return r;
};

/** The CRC of `bytes` under catalogue parameters (bit by bit, so any width works). */
export function crcOf(bytes: Uint8Array, [width, polyHex, initHex, refin, refout, xorHex]: Params): bigint {
  const poly = BigInt("0x" + polyHex), mask = (1n << BigInt(width)) - 1n, top = BigInt(width - 1);
  let reg = BigInt("0x" + initHex);
  for (const byte of bytes) {
    const b = refin ? Number(reflect(BigInt(byte), 8)) : byte;
    for (let k = 7; k >= 0; k--) {
      const feedback = ((reg >> top) & 1n) ^ BigInt((b >> k) & 1);
      reg = (reg << 1n) & mask;
      if (feedback) reg ^= poly;
    }
  }
  if (refout) reg = reflect(reg, width);
  return reg ^ BigInt("0x" + xorHex);
}
