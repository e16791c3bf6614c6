/**
 * HTTPS (`[http.tls]`): a server started with a certificate signed by a test CA answers real clients
 * that trust that CA (Deno fetch with `Deno.createHttpClient({ caCerts })`, and curl), reloads a
 * renewed certificate on SIGHUP without a restart, keeps the old one when the new files are bad,
 * and will not start in `require` mode without a certificate.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runMain, spawnServer } from "../helpers/server.ts";
import { ensureDebianBinary, waitFor } from "../helpers/debian.ts";

async function run(cmd: string, args: string[], stdin?: string): Promise<string> {
  const child = new Deno.Command(cmd, {
    args,
    stdin: stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  })
    .spawn();
  if (stdin !== undefined) {
    const w = child.stdin.getWriter();
    await w.write(new TextEncoder().encode(stdin));
    await w.close();
  }
  const out = await child.output();
  if (!out.success) throw new Error(`${cmd} ${args.join(" ")}: ${new TextDecoder().decode(out.stderr)}`);
  return new TextDecoder().decode(out.stdout);
}

const hasOpenssl = (await ensureDebianBinary("openssl", "openssl")) !== null &&
  (await ensureDebianBinary("curl", "curl")) !== null;

/** A CA, and a server certificate for localhost/127.0.0.1 signed by it with subject CN=`cn`. */
async function issue(dir: string, cn: string): Promise<{ cert: string; key: string }> {
  const ca = join(dir, "ca");
  if (!(await Deno.stat(`${ca}.pem`).catch(() => null))) {
    await run("openssl", [
      "req",
      "-x509",
      "-newkey",
      "rsa:2048",
      "-nodes",
      "-keyout",
      `${ca}.key`,
      "-out",
      `${ca}.pem`,
      "-days",
      "2",
      "-subj",
      "/CN=petrel test CA",
    ]);
  }
  const leaf = join(dir, cn);
  await run("openssl", [
    "req",
    "-newkey",
    "rsa:2048",
    "-nodes",
    "-keyout",
    `${leaf}.key`,
    "-out",
    `${leaf}.csr`,
    "-subj",
    `/CN=${cn}`,
  ]);
  await Deno.writeTextFile(
    `${leaf}.ext`,
    "subjectAltName=DNS:localhost,IP:127.0.0.1\nbasicConstraints=CA:FALSE\n",
  );
  await run("openssl", [
    "x509",
    "-req",
    "-in",
    `${leaf}.csr`,
    "-CA",
    `${ca}.pem`,
    "-CAkey",
    `${ca}.key`,
    "-CAcreateserial",
    "-out",
    `${leaf}.pem`,
    "-days",
    "2",
    "-extfile",
    `${leaf}.ext`,
  ]);
  return { cert: `${leaf}.pem`, key: `${leaf}.key` };
}

/** The subject CN of the certificate the server presents now. */
async function presentedCn(port: number): Promise<string> {
  const chain = await run("openssl", [
    "s_client",
    "-connect",
    `127.0.0.1:${port}`,
    "-servername",
    "localhost",
  ], "");
  const subject = await run("openssl", ["x509", "-noout", "-subject"], chain);
  return /CN\s*=\s*([^,\n]+)/.exec(subject)?.[1].trim() ?? subject;
}

Deno.test({
  name: "HTTPS with a CA-signed certificate: real clients, SIGHUP reload, bad files keep the old certificate",
  ignore: !hasOpenssl,
  fn: async () => {
    const dir = await Deno.makeTempDir({ prefix: "petrel_tls_" });
    const first = await issue(dir, "petrel-one");
    const certPath = join(dir, "server.pem"), keyPath = join(dir, "server.key");
    await Deno.copyFile(first.cert, certPath);
    await Deno.copyFile(first.key, keyPath);
    const toml = join(dir, "petrel.toml");
    await Deno.writeTextFile(
      toml,
      `[http.tls]\nmode = "require"\ncert_path = "${certPath}"\nkey_path = "${keyPath}"\n`,
    );
    const server = await spawnServer([
      "--config-file",
      toml,
      "--http-addr",
      "127.0.0.1:0",
      "--data-home",
      join(dir, "data"),
    ]);
    // A supervisor may reload as soon as it reads the listening line: the server is ready for it.
    server.child.kill("SIGHUP");
    const client = Deno.createHttpClient({ caCerts: [await Deno.readTextFile(join(dir, "ca.pem"))] });
    try {
      const reloaded = await waitFor(
        () => Promise.resolve(server.stderr().includes("TLS certificate reloaded") || null),
        60_000,
        50,
      );
      assert.ok(reloaded, `no reload logged: ${server.stderr()}`);
      assert.match(server.url, /^https:\/\/127\.0\.0\.1:\d+$/);
      const port = Number(new URL(server.url).port);
      const w = await fetch(`${server.url}/v1/influxdb/write?precision=ms`, {
        method: "POST",
        body: "tls,h=a v=1i 1",
        client,
      });
      assert.equal(w.status, 204, await w.text());
      const q = await fetch(`${server.url}/v1/sql?sql=${encodeURIComponent("SELECT v FROM tls")}`, {
        client,
      });
      assert.deepEqual((await q.json()).output[0].records.rows, [[1]]);
      // Without trusting the CA, or in plain HTTP, nothing gets through.
      await assert.rejects(fetch(`${server.url}/health`));
      await assert.rejects(fetch(`http://127.0.0.1:${port}/health`).then((r) => r.body?.cancel()));
      const curl = await run("curl", [
        "-sS",
        "--cacert",
        join(dir, "ca.pem"),
        `https://localhost:${port}/health`,
      ]);
      assert.equal(curl, "{}");

      assert.equal(await presentedCn(port), "petrel-one");
      const second = await issue(dir, "petrel-two");
      await Deno.copyFile(second.cert, certPath);
      await Deno.copyFile(second.key, keyPath);
      server.child.kill("SIGHUP");
      // The reload swaps listeners: a handshake in between is refused (clients retry), so a failed
      // one is "not yet", like the old certificate.
      const renewed = await waitFor(
        async () => (await presentedCn(port)) === "petrel-two" || null,
        60_000,
        100,
      );
      assert.ok(renewed, `still presenting ${await presentedCn(port).catch(String)} after SIGHUP`);
      const after = await fetch(`${server.url}/health`, { client });
      assert.equal(after.status, 200);
      await after.body?.cancel();

      await Deno.writeTextFile(certPath, "not a certificate\n");
      server.child.kill("SIGHUP");
      await waitFor(() => Promise.resolve(server.stderr().includes("TLS reload failed") || null), 60_000, 50);
      assert.match(server.stderr(), /TLS reload failed; serving the previous certificate/);
      assert.equal(await presentedCn(port), "petrel-two");
    } finally {
      client.close();
      await server.stop();
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test("[http.tls] mode = require without a certificate does not start", async () => {
  const dir = await Deno.makeTempDir({ prefix: "petrel_tls_" });
  const r = await runMain(["start", "--http-addr", "127.0.0.1:0", "--data-home", join(dir, "data")], {
    PETREL__HTTP__TLS__MODE: "require",
  });
  assert.equal(r.code, 1, r.stderr);
  assert.match(r.stderr, /mode = "require" needs both cert_path and key_path/);
  await Deno.remove(dir, { recursive: true });
});
