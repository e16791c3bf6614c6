/**
 * HTTPS for the HTTP server (`[http.tls]`, GreptimeDB's TLS option names): `disable` serves plain
 * HTTP; `require` serves HTTPS and will not start without a certificate and key; `prefer` serves
 * HTTPS when both paths are set, plain HTTP otherwise. Client-certificate modes (`verify_ca`,
 * `verify_full`) are not offered for HTTP. The PEM files are read at start-up and again on
 * `reload` (SIGHUP), so a renewed certificate takes effect without a restart.
 */
import type { Config } from "../config/config.ts";

/** A certificate chain and its private key, PEM. */
export interface TlsFiles {
  cert: string;
  key: string;
}

/** A TLS setting that cannot be served. */
export class TlsConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "TlsConfigError";
  }
}

/** Reads the configured certificate and key; null when the server is to speak plain HTTP. */
export async function loadTls(tls: Config["http"]["tls"]): Promise<TlsFiles | null> {
  if (tls.mode === "disable") return null;
  const have = tls.cert_path !== "" && tls.key_path !== "";
  if (!have) {
    if (tls.mode === "prefer") return null;
    throw new TlsConfigError('[http.tls] mode = "require" needs both cert_path and key_path');
  }
  const read = async (what: string, path: string) => {
    try {
      return await Deno.readTextFile(path);
    } catch (e) {
      throw new TlsConfigError(`Cannot read the TLS ${what} ${path}: ${(e as Error).message}`);
    }
  };
  const files = { cert: await read("certificate", tls.cert_path), key: await read("key", tls.key_path) };
  if (!/-----BEGIN [A-Z ]*CERTIFICATE-----/.test(files.cert)) {
    throw new TlsConfigError(`${tls.cert_path} holds no PEM certificate`);
  }
  if (!/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(files.key)) {
    throw new TlsConfigError(`${tls.key_path} holds no PEM private key`);
  }
  return files;
}
