/**
 * GreptimeDB's geohash and point functions: `geohash`, `geohash_neighbours`, `wkt_point_from_latlng`,
 * `st_distance` and `st_distance_sphere_m`. Coordinates are taken as (lat, lng), as GreptimeDB's are;
 * a WKT point is written `POINT(lng lat)`. NULL in → NULL out. H3 lives in h3.ts.
 */
import { GEOHASH_MAX_LENGTH, geohashEncode, geohashNeighbours } from "../../common/geohash.ts";
import { arrayText } from "./arrays.ts";
import type { Arg, ScalarDef } from "./values.ts";

/** An argument as an error message shows it. */
export function shown(v: Arg): string {
  return v instanceof Uint8Array ? "binary" : typeof v === "string" ? `'${v}'` : String(v);
}

/** Refuses a call with the wrong number of arguments. */
export function arity(fn: string, args: Arg[], n: number): void {
  if (args.length !== n) throw new Error(`${fn} expects ${n} arguments, got ${args.length}`);
}

/** A numeric argument (NULL excluded); text and binary are refused, naming `what`. */
function numberArg(fn: string, what: string, v: Arg): number {
  if (typeof v === "number" || typeof v === "bigint") return Number(v);
  throw new Error(`${fn} expects a numeric ${what}, got ${shown(v)}`);
}

/** A (lat, lng) pair of arguments, checked to lie on the globe. */
export function latLngArgs(fn: string, lat: Arg, lng: Arg): [number, number] {
  const y = numberArg(fn, "latitude", lat), x = numberArg(fn, "longitude", lng);
  if (!(y >= -90 && y <= 90)) throw new Error(`${fn}: latitude must be between -90 and 90, got ${y}`);
  if (!(x >= -180 && x <= 180)) throw new Error(`${fn}: longitude must be between -180 and 180, got ${x}`);
  return [y, x];
}

/** An integer argument between `min` and `max`, naming `what` when it is not. */
export function intArg(fn: string, what: string, v: Arg, min: number, max: number): number {
  const n = typeof v === "bigint" ? Number(v) : typeof v === "number" && Number.isInteger(v) ? v : NaN;
  if (Number.isNaN(n)) throw new Error(`${fn} expects an integer ${what}, got ${shown(v)}`);
  if (n < min || n > max) throw new Error(`${fn}: ${what} must be between ${min} and ${max}, got ${v}`);
  return n;
}

const geohashResolution = (fn: string, v: Arg) => intArg(fn, "resolution", v, 1, GEOHASH_MAX_LENGTH);

/** A point from its WKT text (`POINT(lng lat)`); other geometries are refused. */
function wktPoint(fn: string, v: Arg): [number, number] {
  const text = typeof v === "string" ? v.trim() : "";
  const m = /^POINT\s*\(\s*(\S+)\s+(\S+)\s*\)$/i.exec(text);
  const x = Number(m?.[1]), y = Number(m?.[2]);
  if (!m || !Number.isFinite(x) || !Number.isFinite(y)) {
    throw new Error(`${fn} expects a WKT point such as 'POINT(-122.3889 37.76938)', got ${shown(v)}`);
  }
  return [x, y];
}

/** The mean Earth radius (metres) of the `geo` crate's haversine distance, GreptimeDB's. */
const MEAN_EARTH_RADIUS_M = 6371008.8;

/** The great-circle distance in metres between two (lng, lat) points in degrees. */
function haversineM([x1, y1]: [number, number], [x2, y2]: [number, number]): number {
  const rad = Math.PI / 180;
  const a = Math.sin(((y2 - y1) * rad) / 2) ** 2 +
    Math.cos(y1 * rad) * Math.cos(y2 * rad) * Math.sin(((x2 - x1) * rad) / 2) ** 2;
  return 2 * Math.asin(Math.sqrt(a)) * MEAN_EARTH_RADIUS_M;
}

/** A scalar of `n` arguments that answers NULL when any is NULL. */
export function nullSafe(
  fn: string,
  n: number,
  body: (...args: Arg[]) => string | number | bigint,
): ScalarDef {
  return {
    bigint: true,
    fn: (...args) => {
      arity(fn, args, n);
      return args.some((a) => a === null) ? null : body(...args);
    },
  };
}

/** Geohash and point functions by name. */
export const GEO_SCALARS: Record<string, ScalarDef> = {
  geohash: nullSafe("geohash", 3, (lat, lng, r) => {
    const [y, x] = latLngArgs("geohash", lat, lng);
    return geohashEncode(y, x, geohashResolution("geohash", r));
  }),
  geohash_neighbours: nullSafe("geohash_neighbours", 3, (lat, lng, r) => {
    const [y, x] = latLngArgs("geohash_neighbours", lat, lng);
    const hash = geohashEncode(y, x, geohashResolution("geohash_neighbours", r));
    try {
      return arrayText(geohashNeighbours(hash));
    } catch (e) {
      throw new Error(`geohash_neighbours: ${e instanceof Error ? e.message : e}`);
    }
  }),
  wkt_point_from_latlng: nullSafe("wkt_point_from_latlng", 2, (lat, lng) => {
    const [y, x] = latLngArgs("wkt_point_from_latlng", lat, lng);
    return `POINT(${x} ${y})`;
  }),
  // the planar distance in degrees, GreptimeDB's for points
  st_distance: nullSafe("st_distance", 2, (a, b) => {
    const [x1, y1] = wktPoint("st_distance", a), [x2, y2] = wktPoint("st_distance", b);
    return Math.hypot(x2 - x1, y2 - y1);
  }),
  st_distance_sphere_m: nullSafe("st_distance_sphere_m", 2, (a, b) => {
    return haversineM(wktPoint("st_distance_sphere_m", a), wktPoint("st_distance_sphere_m", b));
  }),
};
