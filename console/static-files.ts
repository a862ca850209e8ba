/**
 * The console's files: its own page, script and style (console/static/) and the two libraries it
 * runs in the browser, xterm.js and uPlot, from node_modules. A fixed table: nothing else is served.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
};

/** URL path → file under the install directory. */
export function fileTable(installDir: string, pageFiles: readonly string[]): Map<string, string> {
  const m = new Map<string, string>();
  m.set("/", path.join(installDir, "console/static/index.html"));
  for (const f of pageFiles) m.set(`/static/${f}`, path.join(installDir, "console/static", f));
  const nm = path.join(installDir, "node_modules");
  m.set("/vendor/xterm.mjs", path.join(nm, "@xterm/xterm/lib/xterm.mjs"));
  m.set("/vendor/xterm.css", path.join(nm, "@xterm/xterm/css/xterm.css"));
  m.set("/vendor/addon-fit.mjs", path.join(nm, "@xterm/addon-fit/lib/addon-fit.mjs"));
  m.set("/vendor/uplot.mjs", path.join(nm, "uplot/dist/uPlot.esm.js"));
  m.set("/vendor/uplot.css", path.join(nm, "uplot/dist/uPlot.min.css"));
  return m;
}

/** The files, read once at start (a missing one is a startup error naming it). */
export async function loadFiles(table: Map<string, string>): Promise<Map<string, { body: Buffer; type: string }>> {
  const out = new Map<string, { body: Buffer; type: string }>();
  for (const [url, file] of table) {
    const body = await readFile(file).catch((e: Error) => {
      throw new Error(`console file ${file}: ${e.message}`);
    });
    out.set(url, { body, type: TYPES[path.extname(file)] ?? "application/octet-stream" });
  }
  return out;
}
