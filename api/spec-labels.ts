/** A sandbox's tags and annotations: bounded, and never a key Hangar or the cluster acts on. */
import type { FieldViolation } from "../core/errors.js";
import { LIMITS } from "./limits.js";
import { CONTROL } from "./spec-text.js";

/** Annotation keys that the cluster or its container runtimes act on (Kubernetes reserves kubernetes.io and k8s.io). */
const RESERVED_ANNOTATION = /^(([a-z0-9-]+\.)*(kubernetes\.io|k8s\.io)\/|(io\.kubernetes|io\.containerd|io\.katacontainers|run\.oci)\.)/i;

export function tagsOf(tags: string[], base: string, v: FieldViolation[]): string[] {
  if (tags.length > LIMITS.tags) v.push({ field: `${base}.tags`, description: `at most ${LIMITS.tags} tags` });
  tags.forEach((t, i) => {
    if (!t || t.length > LIMITS.tagLength || CONTROL.test(t))
      v.push({ field: `${base}.tags[${i}]`, description: `must be 1-${LIMITS.tagLength} characters without control characters` });
  });
  return tags;
}

export function annotationsOf(annotations: Record<string, string>, base: string, v: FieldViolation[]): Record<string, string> {
  if (
    Object.keys(annotations).length > LIMITS.annotations ||
    Object.entries(annotations).reduce((a, [k, x]) => a + k.length + x.length, 0) > LIMITS.annotationBytes
  ) {
    v.push({ field: `${base}.annotations`, description: `at most ${LIMITS.annotations} annotations and ${LIMITS.annotationBytes} bytes` });
  }
  for (const k of Object.keys(annotations)) {
    if (/(^|\.)hangar\.dev\//.test(k))
      v.push({
        field: `${base}.annotations[${JSON.stringify(k)}]`,
        description: "keys under hangar.dev/ are Hangar's own (records, egress grants)",
      });
    else if (RESERVED_ANNOTATION.test(k))
      v.push({
        field: `${base}.annotations[${JSON.stringify(k)}]`,
        description:
          "keys under kubernetes.io/, k8s.io/ and the container runtimes' io.kubernetes., io.containerd., io.katacontainers. and run.oci. are the cluster's own (seccomp and AppArmor profiles, runtime settings): a sandbox cannot set them",
      });
  }
  return annotations;
}
