/**
 * The release program's entry (`deno task release` bundles this, not `main.ts`): the release file
 * starts it from its extracted copy, from a shell or by `import()` when run as `deno run petrel.js`,
 * where `import.meta.main` of `main.ts` would be false.
 */
import { main } from "../../main.ts";

Deno.exit(await main(Deno.args));
