/**
 * The SQL function table with every group loaded, for the main thread: its statements run
 * synchronously, so it cannot load a lazy group when a query first names one (a query worker
 * imports `registry.ts` instead and does).
 */
import { provideFunctionGroup } from "./registry.ts";
import { H3_SCALARS } from "./h3.ts";
import { REGEX_SCALARS } from "./regex.ts";
import { HASH_SCALARS } from "./hashes.ts";

provideFunctionGroup("h3", H3_SCALARS);
provideFunctionGroup("regex", REGEX_SCALARS);
provideFunctionGroup("hashes", HASH_SCALARS);

export {
  AGGREGATE_FUNCTION_NAMES,
  FUNCTION_NAMES,
  registerSqlFunctions,
  setCancelFlag,
  takeFunctionError,
} from "./registry.ts";
