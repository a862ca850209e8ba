import { describe, expect, it } from "vitest";
import { EXIT_MARK, ExitMarkFilter } from "../../runtime/kubernetes/exec/exit-marker.js";

const run = (parts: string[]) => {
  const f = new ExitMarkFilter();
  const out = parts.map((p) => f.push(Buffer.from(p, "latin1")).toString("latin1")).join("") + f.flush().toString("latin1");
  return { out, rc: f.rc };
};

describe("the wrapper's end marker on stderr", () => {
  const cases: [string, string[], string, number | undefined][] = [
    ["stderr and the marker in one frame", [`oops\n${EXIT_MARK}7\0`], "oops\n", 7],
    ["the marker split across frames", ["warn\n\0hang", "ar-rc:", "0", "\0"], "warn\n", 0],
    ["the marker alone", [`${EXIT_MARK}255\0`], "", 255],
    ["no marker: a cut stream", ["partial output"], "partial output", undefined],
    ["a NUL that is not the marker passes through", ["a\0b", "c"], "a\0bc", undefined],
    ["a held prefix that turns out not to be the marker is passed on", ["x\0hang", "over\n"], "x\0hangover\n", undefined],
    ["a prefix held at the end of a cut stream comes out at the end", ["x\0hangar-r"], "x\0hangar-r", undefined],
  ];
  for (const [what, parts, out, rc] of cases) it(what, () => expect(run(parts)).toEqual({ out, rc }));
});
