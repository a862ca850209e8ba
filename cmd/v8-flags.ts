/**
 * V8 flags Hangar sets on itself, first thing at start (cmd/main.ts imports this module before
 * any other, so nothing has allocated yet).
 *
 * `--external-memory-accounted-in-global-limit`: exec output crosses Hangar as Buffers (TLS
 * records, websocket frames, agent frames, protobuf messages, HTTP/2 frames), several short-lived
 * ArrayBuffers per byte relayed. Without the flag V8 counts that external memory against a soft
 * limit of its own and requests a full mark-compact each time it is crossed: relaying 110 MiB
 * caused 22 mark-compacts of a 10 MB heap in a bare grpc-js stream, 28-31 of Hangar's 40 MB heap,
 * and garbage collection was the largest item of Hangar's CPU profile (ADR 0020). With it the
 * external memory counts toward the heap's global limit, which grows with the live heap, and
 * dead buffers are reclaimed by scavenges as before.
 */
import { setFlagsFromString } from "node:v8";

export const V8_FLAGS = ["--external-memory-accounted-in-global-limit"] as const;

for (const f of V8_FLAGS) setFlagsFromString(f);
