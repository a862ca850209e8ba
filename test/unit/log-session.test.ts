import { describe, expect, it } from "vitest";
import { logSessionId, parseLogSession } from "../../api/log-session.js";
import { tailStart } from "../../runtime/kubernetes/stores/pod-logs.js";

describe("log sessions", () => {
  it("name the sandbox, the timeline and the format, and only those parse", () => {
    const id = "0f0e0d0c-0b0a-4000-8000-000000000001";
    expect(parseLogSession(logSessionId(id, "abc123", true))).toEqual({ sandboxId: id, epoch: "abc123", timestamps: true });
    expect(parseLogSession(logSessionId(id, "abc123", false))?.timestamps).toBe(false);
    for (const bad of ["", "this-session-does-not-exist", `ls1.${id}.XYZ.r`, `ls2.${id}.ab.r`, `ls1.${id}.ab.x`])
      expect(parseLogSession(bad), bad).toBeUndefined();
  });
  it("the tail of a log (Kubernetes reads it whole to know where it starts)", () => {
    const t = Buffer.from("a\nbb\nccc\n");
    expect(tailStart(t, 1)).toBe(5);
    expect(tailStart(t, 2)).toBe(2);
    expect(tailStart(t, 3)).toBe(0);
    expect(tailStart(t, 10)).toBe(0);
    expect(tailStart(Buffer.from("a\nb"), 1)).toBe(2);
  });
});
