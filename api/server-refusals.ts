/** What the server answers for what Hangar does not serve: whole services refused, and the methods only newer SDKs know. */
import type * as grpc from "@grpc/grpc-js";
import { errors } from "../core/errors.js";
import type { CallWrapper } from "./call.js";
import { SDK_ONLY_METHODS } from "./sdk-only-methods.js";

/** A service Hangar does not offer: every method answers with a typed reason. */
export function refuseService(server: grpc.Server, plain: CallWrapper, service: grpc.ServiceDefinition, why: (method: string) => Error) {
  const impl: grpc.UntypedServiceImplementation = {};
  for (const [name, def] of Object.entries(service)) {
    const method = def.originalName ?? name;
    if (def.requestStream || def.responseStream)
      impl[method] = plain.stream(method, async () => {
        throw why(method);
      }) as unknown as grpc.UntypedHandleCall;
    else
      impl[method] = plain.unary(method, () => {
        throw why(method);
      });
  }
  server.addService(service, impl);
}

/** Methods that only newer SDK releases know: raw handlers, typed UNIMPLEMENTED. */
export function registerSdkOnlyMethods(server: grpc.Server, wrap: CallWrapper) {
  const raw = (b: Buffer) => b;
  for (const m of SDK_ONLY_METHODS) {
    const name = m.path.split("/")[2] as string;
    const why = () => errors.notImplemented(name);
    const type = m.clientStream ? (m.serverStream ? "bidi" : "clientStream") : m.serverStream ? "serverStream" : "unary";
    const handler =
      type === "unary"
        ? wrap.unary(name, () => {
            throw why();
          })
        : wrap.stream(name, async () => {
            throw why();
          });
    if (type === "clientStream") continue;
    server.register(m.path, handler as unknown as grpc.handleUnaryCall<Buffer, Buffer>, raw, raw, type);
  }
}
