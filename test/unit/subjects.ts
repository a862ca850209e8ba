/**
 * For tests that read a domain refusal directly (placement): the subject it names, checked to be
 * named on the wire as the field the SDK has always seen (api/wire-fields.ts).
 */
import { expect } from "vitest";
import { wireField } from "../../api/wire-fields.js";

export function subject(domain: string, wire: string): string {
  expect(wireField(domain)).toBe(wire);
  return domain;
}
