/** The processor table: YAML name → compiler. */
import { compileCmcd } from "./cmcd.ts";
import type { ProcessorCompiler } from "./common.ts";
import { compileCsv } from "./csv.ts";
import { compileDate } from "./date.ts";
import { compileDecolorize } from "./decolorize.ts";
import { compileDigest } from "./digest.ts";
import { compileDissectProcessor } from "./dissect.ts";
import { compileEpoch } from "./epoch.ts";
import { compileFilter } from "./filter.ts";
import { compileGsub } from "./gsub.ts";
import { compileJoin } from "./join.ts";
import { compileJsonParse } from "./json_parse.ts";
import { compileJsonPathProcessor } from "./json_path.ts";
import { compileLetter } from "./letter.ts";
import { compileRegex } from "./regex.ts";
import { compileSelect } from "./select.ts";
import { compileSimpleExtract } from "./simple_extract.ts";
import { compileUrlencoding } from "./urlencoding.ts";
import { compileVrlProcessor } from "./vrl.ts";

/** Every processor GreptimeDB knows, by its YAML name. */
export const PROCESSORS: Record<string, ProcessorCompiler> = {
  cmcd: compileCmcd,
  csv: compileCsv,
  date: compileDate,
  decolorize: compileDecolorize,
  digest: compileDigest,
  dissect: compileDissectProcessor,
  epoch: compileEpoch,
  filter: compileFilter,
  gsub: compileGsub,
  join: compileJoin,
  json_parse: compileJsonParse,
  json_path: compileJsonPathProcessor,
  letter: compileLetter,
  regex: compileRegex,
  select: compileSelect,
  simple_extract: compileSimpleExtract,
  urlencoding: compileUrlencoding,
  vrl: compileVrlProcessor,
};
