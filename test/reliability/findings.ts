/** Inputs fuzz runs once broke on, replayed as regression steps (`fuzz_test.ts`, `fuzz_body_test.ts`). */
import assert from "node:assert/strict";
import { startFuzzTarget } from "./fuzz.ts";

/** One input a fuzz run found. */
export interface Finding {
  name: string;
  path: string;
  headers?: Record<string, string>;
  body: string | (() => Uint8Array | string);
  /** 400 unless said; a 2xx stores the body. */
  status?: number;
  /** What the answer must say (not an internal failure's message). */
  error?: RegExp;
  /** How long the answer may take, in ms (the fix made it that fast). */
  within?: number;
}

/** What a finding's own checks get: its answer and the server's address. */
export interface FindingAnswer {
  response: Response;
  text: string;
  url: string;
}

/**
 * Posts each finding to one fresh fuzz target as a step of `t`, checking its status, its error
 * text and, when refused, that nothing was written; `more` adds a test's own checks.
 */
export async function replayFindings<F extends Finding>(
  t: Deno.TestContext,
  findings: F[],
  target: { bodyLimit: number; healthMs: number },
  more?: (finding: F, answer: FindingAnswer) => Promise<void> | void,
): Promise<void> {
  const fuzz = await startFuzzTarget(target.bodyLimit, target.healthMs);
  try {
    for (const f of findings) {
      await t.step(f.name, async () => {
        const before = fuzz.snapshot();
        const response = await fetch(fuzz.url + f.path, {
          method: "POST",
          body: (typeof f.body === "function" ? f.body() : f.body) as BodyInit,
          headers: f.headers,
          signal: f.within === undefined ? undefined : AbortSignal.timeout(f.within),
        });
        const text = await response.text();
        assert.equal(response.status, f.status ?? 400, text.slice(0, 300));
        if (f.error) assert.match(text, f.error);
        if (response.status >= 400) assert.equal(fuzz.snapshot(), before);
        await more?.(f, { response, text, url: fuzz.url });
      });
    }
  } finally {
    await fuzz.stop();
  }
}
