/** The kinds of field rule (api/field-policy.ts) and the short constructors the rule tables use. */

/**
 * A test reference: `<path>::<name>` — a pytest function (`test/e2e/x.py::test_y`: the file holds
 * `def test_y(`) or a vitest title (`test/unit/x.test.ts::<a unique part of the it/test title>`).
 * test/unit/field-policy.test.ts fails when an honoured rule names none, or one that does not exist.
 */
export type TestRef = string;

export type Rule =
  | { honoured: string; tests: TestRef[] }
  | { checked: string; tests?: TestRef[] }
  | { refused: string; unimplemented?: true }
  | { output: true };

/** Honoured: what Hangar does, and the test(s) that show the effect (not merely send the field). */
export const h = (how: string, ...tests: [TestRef, ...TestRef[]]): Rule => ({ honoured: how, tests });
export const c = (what: string, ...tests: TestRef[]): Rule => (tests.length ? { checked: what, tests } : { checked: what });
export const r = (why: string): Rule => ({ refused: why });
export const u = (why: string): Rule => ({ refused: why, unimplemented: true });
export const o: Rule = { output: true };
