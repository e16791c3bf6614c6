/**
 * Geohash (Gustavo Niemeyer's base-32 cells): a point's cell at 1..12 characters and the 8 cells
 * around one, as the Rust `geohash` crate GreptimeDB uses computes them.
 */

const BASE32 = "0123456789bcdefghjkmnpqrstuvwxyz";

/** The longest geohash GreptimeDB encodes. */
export const GEOHASH_MAX_LENGTH = 12;

/** A cell's extent in degrees. */
export interface GeohashBox {
  latMin: number;
  latMax: number;
  lngMin: number;
  lngMax: number;
}

/** The geohash of (lat, lng) with `length` characters; bits alternate longitude first. */
export function geohashEncode(lat: number, lng: number, length: number): string {
  const box: GeohashBox = { latMin: -90, latMax: 90, lngMin: -180, lngMax: 180 };
  let out = "", bits = 0, n = 0, lngBit = true;
  while (out.length < length) {
    const [lo, hi, v] = lngBit ? ["lngMin", "lngMax", lng] as const : ["latMin", "latMax", lat] as const;
    const mid = (box[lo] + box[hi]) / 2;
    bits <<= 1;
    if (v >= mid) {
      bits |= 1;
      box[lo] = mid;
    } else {
      box[hi] = mid;
    }
    lngBit = !lngBit;
    if (++n === 5) {
      out += BASE32[bits];
      bits = n = 0;
    }
  }
  return out;
}

/** The extent of a geohash's cell; undefined when it holds a character outside geohash's alphabet. */
export function geohashBox(hash: string): GeohashBox | undefined {
  const box: GeohashBox = { latMin: -90, latMax: 90, lngMin: -180, lngMax: 180 };
  let lngBit = true;
  for (const ch of hash) {
    const v = BASE32.indexOf(ch);
    if (v < 0) return undefined;
    for (let b = 4; b >= 0; b--) {
      const [lo, hi] = lngBit ? ["lngMin", "lngMax"] as const : ["latMin", "latMax"] as const;
      const mid = (box[lo] + box[hi]) / 2;
      if ((v >> b) & 1) box[lo] = mid;
      else box[hi] = mid;
      lngBit = !lngBit;
    }
  }
  return box;
}

/**
 * The 8 cells around a geohash, in GreptimeDB's order: n, nw, w, sw, s, se, e, ne. Longitude wraps
 * across the antimeridian; a neighbour past a pole is an error, as the crate's is.
 */
export function geohashNeighbours(hash: string): string[] {
  const box = geohashBox(hash);
  if (box === undefined) throw new Error(`invalid geohash '${hash}'`);
  const lat = (box.latMin + box.latMax) / 2, lng = (box.lngMin + box.lngMax) / 2;
  const dLat = box.latMax - box.latMin, dLng = box.lngMax - box.lngMin;
  const steps: Array<[number, number]> = [[1, 0], [1, -1], [0, -1], [-1, -1], [-1, 0], [-1, 1], [0, 1], [
    1,
    1,
  ]];
  return steps.map(([north, east]) => {
    const y = lat + north * dLat;
    if (y < -90 || y > 90) throw new Error(`geohash '${hash}' has no neighbour past the pole`);
    let x = lng + east * dLng;
    if (x > 180) x -= 360;
    if (x < -180) x += 360;
    return geohashEncode(y, x, hash.length);
  });
}
