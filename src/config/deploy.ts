/**
 * Deno Deploy: an isolate with no lasting disk. Petrel notices it from the environment (`DENO_DEPLOY`,
 * or `DENO_DEPLOYMENT_ID`, which Deploy sets) and then keeps its data in SQLite `:memory:` unless a
 * data home is given, listens on all interfaces (`PORT` or 8000) unless an address is given, takes no
 * data-home lock and spawns no subprocess.
 */

/** The variables that mark a Deno Deploy isolate. */
export const DEPLOY_ENV_VARS = ["DENO_DEPLOY", "DENO_DEPLOYMENT_ID"] as const;

/** The variable that says Petrel runs on Deno Deploy, or null when it does not. */
export function deployMarker(env: Record<string, string>): string | null {
  return DEPLOY_ENV_VARS.find((name) => (env[name] ?? "") !== "") ?? null;
}

/** Whether this process runs on Deno Deploy (reading the environment may be denied: then not). */
export function onDenoDeploy(): boolean {
  try {
    return DEPLOY_ENV_VARS.some((name) => (Deno.env.get(name) ?? "") !== "");
  } catch {
    return false;
  }
}

/** The defaults Deploy changes, applied before the TOML file, `PETREL__…` variables and flags. */
export function deployDefaults(env: Record<string, string>): { data_home: string; addr: string } {
  return { data_home: ":memory:", addr: `0.0.0.0:${env.PORT || "8000"}` };
}
