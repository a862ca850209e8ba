/**
 * The plain exec path's kill on Kubernetes (plain.ts), against an in-process stand-in for the
 * apiserver's exec websocket (v5.channel.k8s.io): a cut stream kills its command through a second
 * exec; an unconfirmed kill is retried with backoff, then fails loudly (KillFailed) and is reported
 * with the sandbox id; a shell-less image's command is killed by the last resort, never "killed"
 * by a no-op (issue 38, ADR 0032).
 */
import * as k8s from "@kubernetes/client-node";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRequire } from "node:module";
import { KillFailed, killFailures } from "../../core/kill.js";
import { kubeExec } from "../../runtime/kubernetes/exec/plain.js";

// ws (client-node's own dependency) has no types here: the little of it this test uses.
type WebSocket = { send(b: Buffer): void; close(): void };
const { WebSocketServer } = createRequire(import.meta.url)("ws") as {
  WebSocketServer: new (o: { server: Server; handleProtocols: () => string }) => {
    on(e: "connection", f: (ws: WebSocket, req: { url?: string }) => void): void;
  };
};

/** Every exec the stand-in got: its argv, and its socket while open. */
const execs: { argv: string[]; ws: WebSocket }[] = [];
/** How the next kill execs answer: "ok" (the kill script's line and Success) or "refuse" (closed at once, as a restarting kubelet). */
let killAnswers: ("ok" | "refuse")[] = [];
let server: Server;
const kc = new k8s.KubeConfig();
const logged: Record<string, unknown>[] = [];
killFailures.setLog({ warn: (o) => logged.push(o as Record<string, unknown>) });

const frame = (ch: number, s: string) => Buffer.concat([Buffer.from([ch]), Buffer.from(s)]);
const isKill = (argv: string[]) => argv[0] === "/bin/sh" && (argv[2] ?? "").includes("hangar-killed");
const until = async (what: () => boolean) => {
  for (let i = 0; i < 500 && !what(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(what()).toBe(true);
};

beforeAll(async () => {
  server = createServer();
  const wss = new WebSocketServer({ server, handleProtocols: () => "v5.channel.k8s.io" });
  wss.on("connection", (ws, req) => {
    const argv = new URL(req.url ?? "/", "http://x").searchParams.getAll("command");
    execs.push({ argv, ws });
    if (!isKill(argv)) return; // a command: runs until the test cuts its stream
    if ((killAnswers.shift() ?? "ok") === "refuse") return ws.close();
    ws.send(frame(1, "hangar-killed\n"));
    ws.send(frame(3, JSON.stringify({ status: "Success" })));
    ws.close();
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  kc.loadFromOptions({
    clusters: [{ name: "c", server: `http://127.0.0.1:${port}`, skipTLSVerify: true }],
    users: [{ name: "u" }],
    contexts: [{ name: "x", cluster: "c", user: "u" }],
    currentContext: "x",
  });
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const start = (o: { shell: boolean; lastResort?: (why: string) => Promise<void>; killDelaysMs?: number[] }) =>
  kubeExec({ kc, namespace: "ns", pod: "sbx-1", argv: ["sleep", "300"], sandboxId: "sb-1", noInput: true, ...o });

describe("kube exec kills", () => {
  it("a cut stream (no exit status) kills its command: a kill exec for the command's own pid file", async () => {
    killAnswers = ["ok"];
    const n = execs.length;
    const p = await start({ shell: true });
    await until(() => execs.length === n + 1);
    const cmd = execs[n]!;
    const pidFile = cmd.argv[3];
    expect(pidFile).toMatch(/^\/tmp\/\.hangar-exec-/);
    cmd.ws.close(); // the stream is cut: no status
    await expect(p.exited).rejects.toMatchObject({ code: "UNAVAILABLE" });
    await until(() => execs.slice(n + 1).some((e) => isKill(e.argv) && e.argv[3] === pidFile));
    await expect(p.kill()).resolves.toBeUndefined(); // the cut's kill, confirmed
  });

  it("an unconfirmed kill is asked again with backoff until confirmed", async () => {
    killAnswers = ["refuse", "refuse", "ok"];
    const n = execs.length;
    const p = await start({ shell: true, killDelaysMs: [10, 20, 40] });
    await until(() => execs.length === n + 1);
    await p.kill();
    expect(execs.slice(n + 1).filter((e) => isKill(e.argv))).toHaveLength(3);
  });

  it("a kill never confirmed within its bound fails loudly (KillFailed unconfirmed), and a cut stream's is reported with the sandbox id", async () => {
    killAnswers = ["refuse", "refuse", "refuse"];
    const n = execs.length;
    const p = await start({ shell: true, killDelaysMs: [10, 10] });
    await until(() => execs.length === n + 1);
    await expect(p.kill()).rejects.toMatchObject({ why: "unconfirmed" });
    expect(execs.slice(n + 1).filter((e) => isKill(e.argv))).toHaveLength(3);

    killAnswers = ["refuse", "refuse", "refuse"];
    const cut = await start({ shell: true, killDelaysMs: [10, 10] });
    await until(() => execs.length === n + 5);
    const before = logged.length;
    execs[n + 4]!.ws.close();
    await until(() => logged.slice(before).some((l) => l.sandbox_id === "sb-1" && l.reason === "unconfirmed"));
    await expect(cut.kill()).rejects.toBeInstanceOf(KillFailed);
  });

  it("without a shell: the last resort kills it (the sandbox ends); with none, the kill fails (no_kill_path) instead of claiming success", async () => {
    const ended: string[] = [];
    const n = execs.length;
    const p = await start({ shell: false, lastResort: async (why) => void ended.push(why) });
    await until(() => execs.length === n + 1);
    expect(execs[n]!.argv).toEqual(["sleep", "300"]);
    await p.kill();
    expect(ended).toHaveLength(1);
    expect(ended[0]).toContain("no /bin/sh");
    const q = await start({ shell: false });
    await expect(q.kill()).rejects.toMatchObject({ why: "no_kill_path" });
  });
});
