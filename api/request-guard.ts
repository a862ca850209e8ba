/** The field guard per method (api/field-policy.ts): the request type of each method the guarded services serve. */
import type protobuf from "protobufjs";
import { guardRequest, GUARDED_SERVICES, METHOD_RULES } from "./field-policy.js";

/** A guard for the calls' requests: the services Hangar serves refuse fields they do not honour; the refused methods need no guard. */
export function methodGuard(root: protobuf.Root): (method: string, request: unknown) => void {
  const inputs = new Map<string, protobuf.Type>();
  for (const svc of GUARDED_SERVICES.map((s) => root.lookupService(s))) {
    for (const m of svc.methodsArray)
      if (!METHOD_RULES[`${svc.name}.${m.name}`]) inputs.set(m.name, (m.resolve(), m.resolvedRequestType as protobuf.Type));
  }
  return (method: string, request: unknown) => {
    const type = inputs.get(method);
    if (type) guardRequest(type, request);
  };
}
