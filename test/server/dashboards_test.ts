/** Saved dashboard definitions (`/v1/dashboards/…`) as GreptimeDB serves them (reference §6.7). */

import assert from "node:assert/strict";
import { startTestServer } from "../helpers/server.ts";

Deno.test("dashboards: save, list, replace, delete, and they outlive a restart", async () => {
  let s = await startTestServer();
  const dataHome = s.dataHome;
  const call = async (method: string, path: string, body?: BodyInit) => {
    const res = await fetch(`${s.url}/v1/dashboards/${path}`, { method, body });
    assert.equal(res.status, 200, `${method} ${path}`);
    assert.equal(res.headers.get("x-greptime-format"), "greptimedb_manage");
    const json = await res.json();
    assert.equal(typeof json.execution_time_ms, "number");
    delete json.execution_time_ms;
    return json;
  };
  try {
    assert.deepEqual(await call("GET", ""), { dashboards: [] });
    assert.deepEqual(await call("POST", "ops", '{"panels":[1]}'), { dashboards: [{ name: "ops" }] });
    await call("POST", "blank", "");
    await call("POST", "bytes", new Uint8Array([0x61, 0xff, 0x62]));
    assert.deepEqual(await call("GET", ""), {
      dashboards: [{ name: "blank" }, { name: "bytes", definition: "a\ufffdb" }, {
        name: "ops",
        definition: '{"panels":[1]}',
      }],
    });
    await call("POST", "ops", '{"panels":[2]}');
    assert.deepEqual(await call("DELETE", "blank"), { dashboards: [{ name: "blank" }] });
    await call("DELETE", "never-saved");
    await s.stop();
    s = await startTestServer({ storage: { data_home: dataHome } });
    const list = await fetch(`${s.url}/v1/dashboards`).then((r) => r.json());
    assert.deepEqual(list.dashboards, [{ name: "bytes", definition: "a\ufffdb" }, {
      name: "ops",
      definition: '{"panels":[2]}',
    }]);
  } finally {
    await s.stop();
  }
});

Deno.test("dashboards: saving needs write permission, listing read", async () => {
  const s = await startTestServer({
    user_provider: "static_user_provider:cmd:reader:ro=r,writer=w",
  });
  try {
    const auth = (u: string) => ({ authorization: `Basic ${btoa(u)}` });
    const denied = await fetch(`${s.url}/v1/dashboards/x`, {
      method: "POST",
      body: "{}",
      headers: auth("reader:r"),
    });
    assert.equal(denied.status, 403, await denied.text());
    const saved = await fetch(`${s.url}/v1/dashboards/x`, {
      method: "POST",
      body: "{}",
      headers: auth("writer:w"),
    });
    assert.equal(saved.status, 200, await saved.text());
    const listed = await fetch(`${s.url}/v1/dashboards/`, { headers: auth("reader:r") });
    assert.equal(listed.status, 200);
    assert.deepEqual((await listed.json()).dashboards, [{ name: "x", definition: "{}" }]);
    assert.equal((await fetch(`${s.url}/v1/dashboards/`)).status, 401);
  } finally {
    await s.stop();
  }
});
