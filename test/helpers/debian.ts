/**
 * Real-client tests drive Debian-packaged peers (prometheus, victoria-metrics). This finds a
 * package's binary, installs the package when running as root on a machine without it (CI), or
 * explains why the caller should skip.
 */

const DIRS = ["/usr/bin", "/usr/sbin", "/usr/local/bin", "/bin", "/sbin"];

function isFile(path: string): boolean {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
}

/** The first executable named `binary` in the usual places or on PATH. */
export function findBinary(binary: string): string | null {
  const path = (Deno.env.get("PATH") ?? "").split(":").filter((d) => d !== "");
  for (const dir of [...DIRS, ...path]) {
    const full = `${dir}/${binary}`;
    if (isFile(full)) return full;
  }
  return null;
}

async function run(cmd: string, args: string[]): Promise<{ ok: boolean; output: string }> {
  try {
    const out = await new Deno.Command(cmd, {
      args,
      env: { DEBIAN_FRONTEND: "noninteractive" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const dec = new TextDecoder();
    return { ok: out.success, output: (dec.decode(out.stdout) + dec.decode(out.stderr)).slice(-2000) };
  } catch (e) {
    return { ok: false, output: (e as Error).message };
  }
}

const installs = new Map<string, Promise<string | null>>();

/**
 * The path of `binary` from Debian package `pkg`: found as is, or installed with `apt-get install -y`
 * when running as root (with one `apt-get update` retry), else null after printing why the test skips.
 */
export function ensureDebianBinary(binary: string, pkg: string): Promise<string | null> {
  const key = `${binary}\u0000${pkg}`;
  let p = installs.get(key);
  if (p === undefined) installs.set(key, p = ensure(binary, pkg));
  return p;
}

async function ensure(binary: string, pkg: string): Promise<string | null> {
  const found = findBinary(binary);
  if (found !== null) return found;
  const skip = (why: string): null => {
    console.warn(`skipping: ${binary} (Debian package ${pkg}) is not available: ${why}`);
    return null;
  };
  if (Deno.build.os !== "linux") return skip(`not Linux (${Deno.build.os})`);
  if (Deno.uid() !== 0) return skip(`not installed, and not root to run apt-get install -y ${pkg}`);
  const apt = findBinary("apt-get");
  if (apt === null) return skip("no apt-get on this machine");
  let r = await run(apt, ["install", "-y", "--no-install-recommends", pkg]);
  if (!r.ok) {
    await run(apt, ["update"]);
    r = await run(apt, ["install", "-y", "--no-install-recommends", pkg]);
  }
  const installed = findBinary(binary);
  if (installed !== null) return installed;
  return skip(`apt-get install -y ${pkg} ${r.ok ? "did not provide it" : `failed: ${r.output}`}`);
}

/** A free TCP port on 127.0.0.1 (bound and released, so another process can take it next). */
export function freePort(): number {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (l.addr as Deno.NetAddr).port;
  l.close();
  return port;
}

/** Polls `check` every `everyMs` until it returns a value or `timeoutMs` passes (then null). */
export async function waitFor<T>(
  check: () => Promise<T | null | undefined>,
  timeoutMs: number,
  everyMs = 250,
): Promise<T | null> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const v = await check();
      if (v !== null && v !== undefined) return v;
    } catch { /* not ready yet */ }
    await new Promise((r) => setTimeout(r, everyMs));
  }
  return null;
}
