/**
 * What a claim applies to a warm pool pod that its pod spec could not (ADR 0041), for every command:
 * the working directory, and the sandbox's secrets as environment variables, read from a file the
 * claim wrote into the sandbox (mode 0600). Pure, table-tested. The file is the sandbox's own — its
 * secrets are its environment on a cold pod too — and goes with its pod or, reused, with its cell.
 */

/** Where a claim writes the sandbox's secrets (the sandbox's filesystem; every replica knows the path). */
export const SECRET_ENV_FILE = "/run/hangar/secret-env";

/** The file's text: one `export NAME='value'` per secret, quoted for sh (names are checked env var names). */
export function secretEnvText(values: Record<string, string>): string {
  return Object.entries(values)
    .map(([k, v]) => `export ${k}='${v.replace(/'/g, `'\\''`)}'\n`)
    .join("");
}

/**
 * The command as the claim wants it run: in `dir`, with the secrets of `envFile` and then `env`
 * (the command's own variables win) in its environment; sh replaced by it at once, so its pid, exit
 * code and signals are the command's. A directory that cannot be entered exits 126, a file that cannot be read ends sh (2).
 */
export function claimWrap(argv: string[], w: { dir?: string; envFile?: string; env?: Record<string, string> }): string[] {
  if (!w.dir && !w.envFile) return argv;
  const env = Object.entries(w.env ?? {});
  const cmd = env.length ? ["env", ...env.map(([k, v]) => `${k}=${v}`), ...argv] : argv;
  const script = 'if [ -n "$2" ]; then cd -- "$2" || exit 126; fi; if [ -n "$1" ]; then . "$1" || exit 126; fi; shift 2; exec "$@"';
  return ["/bin/sh", "-c", script, "hangar-claim", w.envFile ?? "", w.dir ?? "", ...cmd];
}
