/**
 * The chaos suite's parts: Hangar replicas as real processes (killed with SIGKILL and restarted on
 * the same port), a gRPC client per replica, the test cluster's daemons restarted by
 * test/cluster/restart-daemon.sh, and the admin view of the sandbox pods.
 */
import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";
import * as k8s from "@kubernetes/client-node";
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createWriteStream, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { promisify } from "node:util";

export const NS = process.env.HANGAR_TEST_NAMESPACE ?? "hangar-test";
export const OUT_DIR = ".build/chaos";
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
export const now = () => Date.now();

export const kc = new k8s.KubeConfig();
kc.loadFromFile(process.env.KUBECONFIG ?? ".cluster/kubeconfig");
export const core = kc.makeApiClient(k8s.CoreV1Api);

const def = protoLoader.loadSync(["coreweave/sandbox/v1/sandbox.proto"], {
  keepCase: true,
  longs: String,
  enums: String,
  defaults: false,
  oneofs: true,
  includeDirs: ["proto"],
});
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const v1 = (grpc.loadPackageDefinition(def) as any).coreweave.sandbox.v1;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Client = any;

export const TENANT = "chaos";
export const KEY = `chaos-${randomBytes(16).toString("hex")}`;
const meta = () => {
  const m = new grpc.Metadata();
  m.set("authorization", `Bearer ${KEY}`);
  return m;
};

export interface CallError extends Error {
  code: number;
  details: string;
}
export const statusName = (code: number) => grpc.status[code] ?? String(code);

/** A unary call with the tenant's key and a deadline. */
export function unary<T = Record<string, unknown>>(c: Client, method: string, req: object, timeoutMs = 30_000): Promise<T> {
  return new Promise((res, rej) =>
    c[method](req, meta(), { deadline: Date.now() + timeoutMs }, (e: CallError | null, r: T) => (e ? rej(e) : res(r))),
  );
}

export interface ExecResult {
  exitCode: number;
  out: string;
}
/**
 * StreamExec to its end: output and exit code, or the call's error. `onStarted` sees the call
 * once the first output arrived (to cancel it: the client vanishing mid-stream).
 */
export function exec(
  c: Client,
  id: string,
  argv: string[],
  o: { timeoutMs?: number; onOutput?: (call: grpc.ClientDuplexStream<object, object>) => void } = {},
): Promise<ExecResult> {
  return new Promise((resolve, reject) => {
    let out = "";
    let exitCode: number | undefined;
    const call = c.StreamExec(meta(), { deadline: Date.now() + (o.timeoutMs ?? 60_000) });
    call.on("data", (m: { output?: { data?: Uint8Array }; exit?: { exit_code?: number }; error?: { message?: string } }) => {
      if (m.output?.data) {
        out += Buffer.from(m.output.data).toString();
        o.onOutput?.(call);
      }
      if (m.exit) exitCode = m.exit.exit_code ?? 0;
      if (m.error) reject(Object.assign(new Error(m.error.message ?? "exec error frame"), { code: -1, details: m.error.message ?? "" }));
    });
    call.on("error", reject);
    call.on("end", () =>
      exitCode === undefined
        ? reject(Object.assign(new Error("stream ended without an exit"), { code: -2, details: "no exit frame" }))
        : resolve({ exitCode, out }),
    );
    call.write({ init: { sandbox_id: id, command: argv } });
    call.end();
  });
}

async function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const s = createServer();
    s.once("error", rej);
    s.listen(0, "127.0.0.1", () => {
      const p = (s.address() as { port: number }).port;
      s.close(() => res(p));
    });
  });
}

const netinitImage = () => (existsSync(".cluster/netinit-image") ? readFileSync(".cluster/netinit-image", "utf8").trim() : "");

/** One Hangar process on a fixed loopback port, as a replica behind a Service: killed and restarted in place. */
export class Replica {
  proc?: ChildProcess;
  client?: Client;
  port = 0;
  starts = 0;
  /** Milliseconds from spawn to listening (serving), per start. */
  readonly startMs: number[] = [];
  private readonly keysFile: string;
  constructor(
    readonly name: string,
    private readonly env: Record<string, string>,
  ) {
    mkdirSync(OUT_DIR, { recursive: true });
    this.keysFile = `${OUT_DIR}/keys`;
    writeFileSync(this.keysFile, `${TENANT}:${KEY}\n`, { mode: 0o600 });
  }
  get up() {
    return !!this.proc && this.proc.exitCode === null && this.proc.signalCode === null && !!this.client;
  }
  async start(): Promise<void> {
    if (!this.port) this.port = await freePort();
    const env = {
      ...(Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("HANGAR_"))) as Record<string, string>),
      KUBECONFIG: process.env.HANGAR_E2E_KUBECONFIG ?? ".cluster/hangar-sa.kubeconfig",
      HANGAR_RUNTIME: "kubernetes",
      HANGAR_NAMESPACE: NS,
      HANGAR_LISTEN: `127.0.0.1:${this.port}`,
      HANGAR_METRICS_LISTEN: "off",
      HANGAR_API_KEYS_FILE: this.keysFile,
      HANGAR_KUBE_NETINIT_IMAGE: netinitImage(),
      // Kubernetes' own backstop (activeDeadlineSeconds = lifetime + this margin) is what ends
      // sandboxes while every replica is down; with the default 2 s the measured lag was 4.6-5.2 s
      // against the suite's 5 s bound, most of it the margin itself.
      HANGAR_KUBE_DEADLINE_MARGIN_SECONDS: "1",
      HANGAR_LOG_LEVEL: "info",
      ...this.env,
    };
    const t0 = now();
    this.starts++;
    const log = createWriteStream(`${OUT_DIR}/${this.name}-${this.starts}.log`);
    const p = spawn(process.execPath, ["--max-semi-space-size=4", "dist/cmd/main.js"], { env, stdio: ["ignore", "pipe", "pipe"] });
    p.stderr?.pipe(log);
    this.proc = p;
    await new Promise<void>((resolve, reject) => {
      let buf = "";
      const timer = setTimeout(() => reject(new Error(`${this.name} not listening after 60 s`)), 60_000);
      p.stdout?.on("data", (b: Buffer) => {
        log.write(b);
        if (buf !== null) {
          buf += b.toString();
          if (buf.includes('"msg":"listening"')) {
            clearTimeout(timer);
            buf = "";
            resolve();
          }
        }
      });
      p.once("exit", (c, s) => {
        clearTimeout(timer);
        reject(new Error(`${this.name} exited (${c ?? s}) before listening`));
      });
    });
    this.startMs.push(now() - t0);
    this.client?.close();
    this.client = new v1.SandboxService(`127.0.0.1:${this.port}`, grpc.credentials.createInsecure());
  }
  /** SIGKILL: no shutdown hooks, in-flight calls cut. */
  async kill(): Promise<void> {
    const p = this.proc;
    if (!p || p.exitCode !== null || p.signalCode !== null) return;
    const gone = new Promise((r) => p.once("exit", r));
    p.kill("SIGKILL");
    await gone;
  }
  async stop(): Promise<void> {
    const p = this.proc;
    if (!p || p.exitCode !== null || p.signalCode !== null) return;
    const gone = new Promise((r) => p.once("exit", r));
    p.kill("SIGTERM");
    await Promise.race([gone, sleep(30_000).then(() => p.kill("SIGKILL"))]);
    this.client?.close();
  }
}

const run = promisify(execFile);
/** SIGKILL and restart of a test-cluster daemon; resolves when it answers again. Returns the milliseconds it took. */
export async function restartDaemon(name: "etcd" | "kube-apiserver" | "kubelet"): Promise<number> {
  const t0 = now();
  await run("bash", ["test/cluster/restart-daemon.sh", name], { timeout: 180_000 });
  return now() - t0;
}

/** The pods of the sandboxes of this run (admin view), retried across an apiserver restart. */
export async function sandboxPods(runTag: string): Promise<k8s.V1Pod[]> {
  for (let i = 0; ; i++) {
    try {
      const [k, v] = runTag.split(":");
      return (await core.listNamespacedPod({ namespace: NS, labelSelector: `hangar.dev/sandbox-id,tag.hangar.dev/${k}=${v}` })).items;
    } catch (e) {
      if (i > 60) throw e;
      await sleep(1000);
    }
  }
}

export const mainRunning = (p: k8s.V1Pod) =>
  !!p.status?.containerStatuses?.find((c) => c.name === "main")?.state?.running &&
  !p.status?.containerStatuses?.find((c) => c.name === "main")?.state?.terminated;
