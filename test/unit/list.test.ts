import { describe, expect, it } from "vitest";
import { encodeToken, matches, page, type ListQuery } from "../../controller/list.js";
import { isHangarError } from "../../core/errors.js";
import { record, spec } from "./fixtures.js";

const q = (over: Partial<ListQuery> = {}): ListQuery => ({
  tags: [],
  showTerminated: false,
  runnerIds: [],
  pageSize: 0,
  pageToken: "",
  ...over,
});

describe("matches", () => {
  const r = record({ spec: spec({ tags: ["a", "b", "a"] }) });
  const cases: [string, Parameters<typeof matches>[1], boolean][] = [
    ["no filter", q(), true],
    ["all requested tags present", q({ tags: ["a", "b"] }), true],
    ["one tag missing", q({ tags: ["a", "c"] }), false],
    ["runner filter hit", q({ runnerIds: ["r1", "r2"] }), true],
    ["runner filter miss", q({ runnerIds: ["r9"] }), false],
    ["state filter", q({ state: "RUNNING" }), true],
    ["other state", q({ state: "COMPLETED" }), false],
    ["TERMINATED matches nothing", q({ state: "TERMINATED" }), false],
    ["PREPARING: not a running sandbox", q({ state: "PREPARING" }), false],
  ];
  for (const [name, query, want] of cases) it(name, () => expect(matches(r, query)).toBe(want));

  it("PREPARING matches a CREATING sandbox whose image is being pulled, and only that", () => {
    expect(matches(record({ state: "CREATING", preparing: true }), q({ state: "PREPARING" }))).toBe(true);
    expect(matches(record({ state: "CREATING" }), q({ state: "PREPARING" }))).toBe(false);
    expect(matches(record({ state: "CREATING", preparing: true }), q({ state: "CREATING" }))).toBe(true);
  });

  it("hides terminal sandboxes unless asked, and a terminal state filter widens by itself", () => {
    const done = record({ state: "COMPLETED" });
    expect(matches(done, q())).toBe(false);
    expect(matches(done, q({ showTerminated: true }))).toBe(true);
    expect(matches(done, q({ state: "COMPLETED" }))).toBe(true);
  });
});

describe("page", () => {
  const recs = Array.from({ length: 5 }, (_, i) => record({ id: `00000000-0000-4000-8000-00000000000${i}`, createdAtMs: 1000 + i }));
  it("walks every record exactly once with opaque tokens", () => {
    const seen: string[] = [];
    let token = "";
    let pages = 0;
    do {
      const res = page(recs, q({ pageSize: 2, pageToken: token }));
      seen.push(...res.items.map((r) => r.id));
      token = res.nextPageToken;
      pages++;
    } while (token);
    expect(pages).toBe(3);
    expect(seen).toEqual(recs.map((r) => r.id));
  });
  it("no token when everything fits", () => expect(page(recs, q()).nextPageToken).toBe(""));
  it("rejects a forged token with a field violation", () => {
    try {
      page(recs, q({ pageToken: "bm9wZQ" }));
      expect.unreachable();
    } catch (e) {
      expect(isHangarError(e) && e.violations[0]?.field).toBe("page_token");
    }
  });
  it("accepts its own tokens", () =>
    expect(() => page(recs, q({ pageToken: encodeToken(`${"0".repeat(11)}1001:${recs[1]?.id}`) }))).not.toThrow());
  it("walks newest first when asked, and a token keeps its direction", () => {
    const seen: string[] = [];
    let token = "";
    do {
      const res = page(recs, q({ pageSize: 2, pageToken: token, descending: true }));
      seen.push(...res.items.map((r) => r.id));
      token = res.nextPageToken;
      if (token) expect(() => page(recs, q({ pageToken: token }))).toThrow(/same sort_direction/);
    } while (token);
    expect(seen).toEqual(recs.map((r) => r.id).reverse());
  });
});
