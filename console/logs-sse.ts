/**
 * A sandbox's log followed live, as server-sent events: `data` frames of text (JSON strings), an
 * `end` event when the log ends (the sandbox stopped) and an `error` event with the reason a log
 * cannot be read. A sandbox still starting is waited for first.
 */
import { isTerminal } from "../core/types.js";
import type { ConsoleDeps } from "./deps.js";
import { httpErrorOf } from "./http.js";
import { needSession, ownerFor, type Call } from "./routes-api.js";

export const TAIL_LINES = 1000;
const START_WAIT_MS = 120_000;

const frame = (event: string | undefined, data: unknown) => `${event ? `event: ${event}\n` : ""}data: ${JSON.stringify(data)}\n\n`;

async function untilStarted(d: ConsoleDeps, owner: string, id: string, signal: AbortSignal): Promise<void> {
  const deadline = d.now() + START_WAIT_MS;
  let r = d.controller.get(owner, id);
  while ((r.state === "PENDING" || r.state === "CREATING") && d.now() < deadline && !signal.aborted) {
    r = await d.controller.getChanged(owner, id, r.state, 10_000, signal, false);
  }
}

export async function followLogs(d: ConsoleDeps, c: Call, id: string): Promise<void> {
  const s = needSession(c);
  const owner = await ownerFor(d, s, id, "read");
  const ac = new AbortController();
  c.res.on("close", () => ac.abort()); // the browser went away (or the stream ended)
  c.res.writeHead(200, { "Content-Type": "text/event-stream; charset=utf-8", "Cache-Control": "no-store", "X-Accel-Buffering": "no" });
  c.res.write(": log of one sandbox\n\n");
  try {
    await untilStarted(d, owner, id, ac.signal);
    const r = d.controller.get(owner, id);
    const follow = !isTerminal(r.state);
    const decoder = new TextDecoder("utf-8");
    for await (const chunk of d.controller.logs(owner, id, { follow, tailLines: TAIL_LINES, timestamps: false, signal: ac.signal })) {
      const text = decoder.decode(chunk.data, { stream: true });
      if (text) c.res.write(frame(undefined, text));
    }
    c.res.write(frame("end", "the log ended"));
  } catch (e) {
    if (!ac.signal.aborted) c.res.write(frame("failed", httpErrorOf(e).message));
  } finally {
    c.res.end();
  }
}
