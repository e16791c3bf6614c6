/**
 * GreptimeDB's `ALIGN … TO …` over `/v1/sql` on a real server: the forms its parser takes (a word or a
 * string read as NOW / CALENDAR / a timestamp, an interval expression as an offset, now() or a timestamp
 * cast shifted by one) and its errors for the rest, and CALENDAR (the default) as the epoch in the
 * session time zone.
 */
import assert from "node:assert/strict";
import { startTestServer } from "../helpers/server.ts";
import { assertSqlErrors, post, query, type SqlErrorCase } from "./fixtures_range.ts";

/** GreptimeDB's sqlness `to.sql` table: rows at 22:30 and 23:30 UTC. */
const TO_TABLE = [
  "CREATE TABLE host (ts TIMESTAMP(3) TIME INDEX, host STRING PRIMARY KEY, val BIGINT)",
  `INSERT INTO host VALUES ('1970-01-01T23:30:00Z', 'host1', 0), ('1970-01-01T22:30:00Z', 'host1', 1),
    ('1970-01-02T23:30:00Z', 'host1', 2), ('1970-01-01T23:30:00Z', 'host2', 3),
    ('1970-01-01T22:30:00Z', 'host2', 4), ('1970-01-02T23:30:00Z', 'host2', 5)`,
];
const DAY = 86_400_000;
const HOUR = 3_600_000;
const Q = (to: string) =>
  `SELECT ts, host, min(val) RANGE '1d' FROM host ALIGN '1d' ${to} ORDER BY host, ts LIMIT 2`;

Deno.test("range query: ALIGN TO forms and the session time zone", async (t) => {
  const s = await startTestServer();
  try {
    for (const sql of TO_TABLE) assert.equal((await post(s, sql)).status, 200, sql);
    const utc = [[0, "host1", 0], [DAY, "host1", 2]];

    await t.step("words and strings read as NOW, CALENDAR or a timestamp, any case", async () => {
      for (const to of ["", "TO CALENDAR", "TO calendar", "TO 'calendar'", "TO ''"]) {
        assert.deepEqual((await query(s, Q(to))).rows, utc, to);
      }
      const now = await query(s, Q("TO 'now'"));
      const word = await query(s, Q("TO now"));
      assert.equal(now.rows.length, 2);
      // both align to the query's time: their slots start within a minute of each other
      const offset = (r: unknown[]) => (r[0] as number) % DAY;
      assert.ok(Math.abs(offset(now.rows[0]) - offset(word.rows[0])) < 60_000, JSON.stringify([now, word]));
    });

    await t.step("an interval expression is an offset from the epoch", async () => {
      const shifted = [[-HOUR, "host1", 1], [23 * HOUR, "host1", 0]];
      assert.deepEqual((await query(s, Q("TO INTERVAL '23 hours'"))).rows, shifted);
      assert.deepEqual(
        (await query(s, Q("TO (INTERVAL '1 day' - INTERVAL '1 hour') BY (host)"))).rows,
        shifted,
      );
    });

    await t.step("now() or a timestamp cast, shifted by an interval", async () => {
      const shifted = [[-HOUR, "host1", 1], [23 * HOUR, "host1", 0]];
      for (
        const to of [
          "TO TIMESTAMP '1970-01-01 23:00:00'",
          "TO '1970-01-02T00:00:00Z'::TIMESTAMP - INTERVAL '1 hour'",
          "TO CAST('1970-01-01 00:00:00' AS TIMESTAMP) + (INTERVAL '22 hours' + INTERVAL '60 minutes')",
        ]
      ) {
        assert.deepEqual((await query(s, Q(to))).rows, shifted, to);
      }
      const offset = (r: unknown[]) => (r[0] as number) % DAY;
      const now = await query(s, Q("TO NOW"));
      const hourAgo = await query(s, Q("TO now() - INTERVAL '25 hours'"));
      const diff = (offset(now.rows[0]) - offset(hourAgo.rows[0]) + DAY) % DAY;
      assert.ok(Math.abs(diff - HOUR) < 60_000, JSON.stringify([now, hourAgo]));
    });

    await t.step("CALENDAR aligns to the epoch in the session time zone", async () => {
      // GreptimeDB's to.sql under Asia/Shanghai: slots start at local midnight, 16:00 UTC
      const local = [[16 * HOUR, "host1", 0], [DAY + 16 * HOUR, "host1", 2]];
      for (const tz of ["Asia/Shanghai", "+08:00"]) {
        for (const to of ["", "TO CALENDAR"]) {
          const r = await query(s, Q(to), { "x-greptime-timezone": tz });
          assert.deepEqual(r.rows, local, `${tz} ${to}`);
        }
      }
      // SET time_zone in the request, as GreptimeDB's to.sql does
      const set = await post(s, `SET time_zone = 'Asia/Shanghai'; ${Q("")}`);
      assert.equal(set.status, 200, JSON.stringify(set.body));
      const outputs = set.body.output as Array<{ records?: { rows: unknown[][] } }>;
      assert.deepEqual(outputs[1].records?.rows, local);
      // an explicit origin keeps its own offset; one without is read in the session time zone
      const plus1 = [[-HOUR, "host1", 1], [DAY - HOUR, "host1", 0]];
      const shanghai = { "x-greptime-timezone": "Asia/Shanghai" };
      assert.deepEqual((await query(s, Q("TO '2023-01-01T00:00:00+01:00'"), shanghai)).rows, plus1);
      assert.deepEqual((await query(s, Q("TO '2023-01-01 00:00:00'"), shanghai)).rows, local);
    });

    const ERRORS: SqlErrorCase[] = [
      [
        Q("TO UNKNOWN"),
        3000,
        /Illegal `align to` argument `UNKNOWN` in range select query, can't be parse as NOW\/CALENDAR\/Timestamp, error: Failed to parse a string into Timestamp, raw string: UNKNOWN/,
      ],
      [Q("TO 'yesterday'"), 3000, /Illegal `align to` argument `yesterday`/],
      [Q("TO 1000"), 3000, /Int64\(1000\) is not a expr can be evaluate and use in range query/],
      [Q("TO 1 + 2"), 3000, /1 \+ 2 is not a expr can be evaluate and use in range query/],
    ];
    await t.step("other TO arguments are 400s naming them", async () => {
      await assertSqlErrors(s, ERRORS);
    });
  } finally {
    await s.stop();
  }
});
