/** The last step of every start (cold, warm, taken over): the mounted files placed, and what the sandbox's status says. */
import type * as k8s from "@kubernetes/client-node";
import type { StartedSandbox } from "../../types.js";
import type { UsernsMode } from "../pod/userns.js";
import type { KubeState, Tracked } from "./state.js";
import { secretEnvText } from "../exec/claim-wrap.js";

export interface PlaceFilesOptions {
  state: KubeState;
  userNamespaces?: UsernsMode;
  /** Runs a command in the pod (plain exec), resolving its exit code. */
  run(pod: string, argv: string[], input?: Buffer): Promise<number>;
  getPod(name: string): k8s.V1Pod | undefined;
  onPod(p: k8s.V1Pod, deleted: boolean): void;
  now: () => number;
}

/** What a sandbox's status says about where and how it runs. */
export function startedNote(
  o: Pick<PlaceFilesOptions, "state" | "userNamespaces">,
  note: string,
  pod: k8s.V1Pod | undefined,
  gvisor: boolean,
  shell: boolean,
  coldWhy?: string,
): string {
  const inUserns = pod?.spec?.hostUsers === false;
  const users = inUserns
    ? "; in a user namespace (hostUsers: false)"
    : gvisor
      ? "; gVisor (its own kernel and namespaces), no network"
      : (o.userNamespaces ?? "off") !== "off"
        ? `; ${o.state.userns.note}`
        : "";
  return `${note}${users}${shell ? "" : "; image has no /bin/sh: plain commands only"}${coldWhy ? `; cold start: ${coldWhy}` : ""}`;
}

/** Makes a working directory applied at claim and writes the mounted files (through exec: needs sh), then the sandbox counts as started. */
export async function placeFiles(
  o: PlaceFilesOptions,
  t: Tracked,
  note: string,
  secretEnv?: Record<string, string>,
): Promise<StartedSandbox> {
  // Secrets applied at claim: a file only the sandbox's user reads, sourced by every command (claim-wrap.ts).
  if (t.secretEnvFile && secretEnv) {
    const write = 'umask 077 && mkdir -p "${1%/*}" && cat > "$1"';
    if ((await o.run(t.pod, ["/bin/sh", "-c", write, "hangar-secrets", t.secretEnvFile], Buffer.from(secretEnvText(secretEnv)))) !== 0)
      throw new Error("could not write the sandbox's secrets into its pod");
  }
  // A working directory applied at claim exists before the first command, as the kubelet makes a container's.
  if (t.workingDir && (await o.run(t.pod, ["/bin/sh", "-c", 'mkdir -p -- "$1"', "hangar-workdir", t.workingDir])) !== 0)
    throw new Error(`could not make the working directory ${t.workingDir}`);
  for (const f of t.spec.files) {
    if (!t.shell) throw new Error("the image has no /bin/sh, which mounted files need");
    const dir = f.path.replace(/\/[^/]*$/, "") || "/";
    const code = await o.run(
      t.pod,
      [
        "/bin/sh",
        "-c",
        'mkdir -p "$1" && t="$2.hangar-$$" && cat > "$t" && chmod 444 "$t" && mv -f "$t" "$2"',
        "hangar-mount",
        dir,
        f.path,
      ],
      f.content,
    );
    if (code !== 0) throw new Error(`could not place mounted file ${f.path}`);
  }
  t.started = true;
  if (t.lastPod) o.onPod(t.lastPod, false);
  return { imageNote: startedNote(o, note, t.lastPod ?? o.getPod(t.pod), !!t.gvisor, t.shell, t.coldWhy), startedAtMs: o.now() };
}
