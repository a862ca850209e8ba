import { describe, expect, it } from "vitest";
import { within } from "../../core/within.js";

describe("within", () => {
  it("answers the promise's value or error when it settles in time", async () => {
    await expect(within(Promise.resolve(7), 1000, () => new Error("late"))).resolves.toBe(7);
    await expect(within(Promise.reject(new Error("own")), 1000, () => new Error("late"))).rejects.toThrow("own");
  });
  it("throws late()'s error when the promise does not settle in time", async () => {
    await expect(within(new Promise(() => undefined), 10, () => new Error("no answer in 10 ms"))).rejects.toThrow("no answer in 10 ms");
  });
});
