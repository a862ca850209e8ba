/** podStep: what a replica does on each look at a sandbox's pod, table-tested on a fake clock. */
import { describe, expect, it } from "vitest";
import type { PodView } from "../../runtime/kubernetes/pod/state.js";
import {
  ADOPTED_EXIT_GRACE_MS,
  ORPHAN_GRACE_MS,
  podStep,
  type SandboxFacts,
  TAKEOVER_AFTER_MS,
  TAKEOVER_MAX_MS,
  TAKEOVER_PER_WAITING_MS,
} from "../../runtime/kubernetes/pod/step.js";

const NOW = 1_000_000;
const STARTUP = 60_000;
const facts = (f: Partial<SandboxFacts> = {}): SandboxFacts => ({
  own: false,
  started: false,
  exited: false,
  takingOver: false,
  podCreatedMs: NOW - 1000,
  ...f,
});
const running: PodView = { t: "running" };
const starting: PodView = { t: "starting", reason: "ContainerCreating" };
const exited: PodView = { t: "exited", exitCode: 3, reason: "Error" };
const failed: PodView = { t: "start-failed", reason: "ErrImagePull: no such image" };

describe("podStep", () => {
  const table: [string, SandboxFacts, PodView, boolean, ReturnType<typeof podStep>][] = [
    ["an exited sandbox: nothing more", facts({ exited: true, started: true }), exited, false, { t: "none" }],
    ["own start running: start() decides", facts({ own: true, recordState: "CREATING" }), running, false, { t: "none" }],
    ["own start, pod exited: start() decides", facts({ own: true }), exited, false, { t: "none" }],
    [
      "adopted, running, record CREATING, first look: remembered",
      facts({ recordState: "CREATING" }),
      running,
      false,
      { t: "none", creatingSeenMs: NOW },
    ],
    [
      "adopted, still CREATING just under the takeover time",
      facts({ recordState: "CREATING", creatingSeenMs: NOW - TAKEOVER_AFTER_MS + 1 }),
      running,
      false,
      { t: "none", creatingSeenMs: NOW - TAKEOVER_AFTER_MS + 1 },
    ],
    [
      "adopted, CREATING for the takeover time: take the start over",
      facts({ recordState: "CREATING", creatingSeenMs: NOW - TAKEOVER_AFTER_MS }),
      running,
      false,
      { t: "take-over", creatingSeenMs: NOW - TAKEOVER_AFTER_MS },
    ],
    [
      "adopted, CREATING for the takeover time while 40 other starts wait: not yet (the starter is busy, not gone)",
      facts({ recordState: "CREATING", creatingSeenMs: NOW - TAKEOVER_AFTER_MS, waitingStarts: 41 }),
      running,
      false,
      { t: "none", creatingSeenMs: NOW - TAKEOVER_AFTER_MS },
    ],
    [
      "adopted, CREATING for the takeover time plus 40 × the per-start patience: take the start over",
      facts({ recordState: "CREATING", creatingSeenMs: NOW - TAKEOVER_AFTER_MS - 40 * TAKEOVER_PER_WAITING_MS, waitingStarts: 41 }),
      running,
      false,
      { t: "take-over", creatingSeenMs: NOW - TAKEOVER_AFTER_MS - 40 * TAKEOVER_PER_WAITING_MS },
    ],
    [
      "the patience is capped",
      facts({ recordState: "CREATING", creatingSeenMs: NOW - TAKEOVER_MAX_MS, waitingStarts: 1_000_000 }),
      running,
      false,
      { t: "take-over", creatingSeenMs: NOW - TAKEOVER_MAX_MS },
    ],
    [
      "a takeover under way is not started twice",
      facts({ recordState: "CREATING", creatingSeenMs: NOW - 60_000, takingOver: true }),
      running,
      false,
      { t: "none", creatingSeenMs: NOW - 60_000 },
    ],
    [
      "a warm pod claimed elsewhere (exec mode known) still CREATING: same takeover",
      facts({ started: true, recordState: "CREATING", creatingSeenMs: NOW - TAKEOVER_AFTER_MS }),
      running,
      false,
      { t: "take-over", creatingSeenMs: NOW - TAKEOVER_AFTER_MS },
    ],
    ["adopted RUNNING record, running pod: nothing", facts({ started: true, recordState: "RUNNING" }), running, false, { t: "none" }],
    [
      "adopted while starting, pod exited: first look waits for the starter's report",
      facts(),
      exited,
      false,
      { t: "none", exitSeenMs: NOW },
    ],
    [
      "... and reports the exit itself after the grace",
      facts({ exitSeenMs: NOW - ADOPTED_EXIT_GRACE_MS }),
      exited,
      false,
      { t: "finish", exit: { exitCode: 3, reason: "Error", endedBy: undefined } },
    ],
    [
      "... or at once when the pod is gone",
      facts(),
      exited,
      true,
      { t: "finish", exit: { exitCode: 3, reason: "Error", endedBy: undefined } },
    ],
    [
      "adopted, start failed (image)",
      facts(),
      failed,
      false,
      { t: "finish", exit: { exitCode: 137, reason: "ErrImagePull: no such image", startFailure: "ErrImagePull: no such image" } },
    ],
    [
      "adopted, deleted while starting",
      facts(),
      starting,
      true,
      { t: "finish", exit: { exitCode: 137, reason: "the pod was deleted while starting", endedBy: "the pod was deleted" } },
    ],
    ["adopted, starting within the startup timeout", facts({ podCreatedMs: NOW - STARTUP }), starting, false, { t: "none" }],
    [
      "adopted, never ran past startup timeout + grace: failed and its pod deleted",
      facts({ podCreatedMs: NOW - STARTUP - ORPHAN_GRACE_MS - 1 }),
      starting,
      false,
      {
        t: "finish",
        exit: { exitCode: 137, reason: "abandoned while starting", startFailure: "Hangar restarted while the sandbox was starting" },
        deletePod: true,
      },
    ],
    [
      "started, main exited",
      facts({ started: true, recordState: "RUNNING" }),
      exited,
      false,
      { t: "finish", exit: { exitCode: 3, reason: "Error", endedBy: undefined } },
    ],
    [
      "started, pod deleted",
      facts({ started: true, recordState: "RUNNING" }),
      running,
      true,
      { t: "finish", exit: { exitCode: 137, reason: "the pod was deleted", endedBy: "the pod was deleted" } },
    ],
  ];
  for (const [name, f, view, deleted, want] of table) it(name, () => expect(podStep(f, view, deleted, NOW, STARTUP)).toEqual(want));
});
