/**
 * Functions on Vector's event state beyond fields and metadata: secrets (`set_secret`, `get_secret`,
 * `remove_secret`, kept per run: Petrel has no sink that reads them) and `set_semantic_meaning` (accepted
 * and ignored: Petrel's schemas carry no semantic meanings).
 */

import { K } from "../types.ts";
import type { FnDef } from "./def.ts";
import { req } from "./def.ts";

/** Secret and semantic-meaning functions by name. */
export const EVENT_FNS: Record<string, FnDef> = {
  get_secret: {
    params: [req("key", K.BYTES)],
    returns: K.BYTES | K.NULL,
    call: ([key], _closure, run) => run?.secrets?.get(key as string) ?? null,
  },
  set_secret: {
    params: [req("key", K.BYTES), req("secret", K.BYTES)],
    returns: K.NULL,
    call: ([key, secret], _closure, run) => {
      if (run) (run.secrets ??= new Map()).set(key as string, secret as string);
      return null;
    },
  },
  remove_secret: {
    params: [req("key", K.BYTES)],
    returns: K.NULL,
    call: ([key], _closure, run) => {
      run?.secrets?.delete(key as string);
      return null;
    },
  },
  set_semantic_meaning: {
    params: [req("target", K.ANY), req("meaning", K.BYTES)],
    returns: K.NULL,
    call: () => null,
  },
};
