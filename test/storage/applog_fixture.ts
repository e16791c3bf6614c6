/** The scan tests' table: `applog`, append mode, 20 rows a millisecond apart from {@link T} over 3 apps. */
import { Storage } from "../../src/storage/mod.ts";
import { executeSql } from "../../src/sql/mod.ts";

/** The first row's time. */
export const T = 1_700_000_000_000n;

/** Runs `body` on a fresh storage holding `applog`; closes and removes it after. */
export function withApplog(body: (s: Storage) => void): void {
  const dir = Deno.makeTempDirSync();
  const s = Storage.open({ dataHome: dir });
  try {
    executeSql(
      s,
      "CREATE TABLE applog (app STRING, line STRING, ts TIMESTAMP TIME INDEX, PRIMARY KEY(app)) " +
        "WITH (append_mode = 'true')",
      { db: "public" },
    );
    const values = Array.from({ length: 20 }, (_, i) => `('a${i % 3}', 'l${i}', ${T + BigInt(i)})`);
    executeSql(s, `INSERT INTO applog VALUES ${values.join(", ")}`, { db: "public" });
    body(s);
  } finally {
    s.close();
    Deno.removeSync(dir, { recursive: true });
  }
}
