import { errors, type FieldViolation } from "../core/errors.js";
import type { ServicePort } from "../core/types.js";
import type { SandboxSpec__Output } from "./generated/coreweave/sandbox/v1/SandboxSpec.js";
import { LIMITS } from "./limits.js";

/**
 * SandboxSpec.services -> ports (an unset visibility is PRIVATE; PUBLIC ones are HTTP over TCP,
 * published through the operator's Gateway where one is configured: placement refuses them where
 * not; an endpoint makes a PUBLIC port HTTPS, open or share-token, or TLS passthrough). PUBLIC and
 * PRIVATE on one sandbox are refused as the SDK expects (CWSANDBOX_NOT_IMPLEMENTED).
 */
export function servicePorts(services: NonNullable<SandboxSpec__Output["services"]>, base: string, v: FieldViolation[]): ServicePort[] {
  const out: ServicePort[] = [];
  services.forEach((svc, i) => {
    const at = `${base}.services[${i}]`;
    const kind = svc.endpoint ? (svc.endpoint.kind ?? "ENDPOINT_KIND_UNSPECIFIED") : undefined;
    const tls = kind === "ENDPOINT_KIND_TLS_PASSTHROUGH";
    const https = kind === "ENDPOINT_KIND_HTTPS";
    const auth = svc.endpoint?.auth ?? "ENDPOINT_AUTH_UNSPECIFIED";
    const timeout = Number(svc.endpoint?.request_timeout_seconds ?? 0);
    const vis = svc.visibility ?? "VISIBILITY_UNSPECIFIED";
    if (vis !== "VISIBILITY_PUBLIC" && vis !== "VISIBILITY_PRIVATE" && vis !== "VISIBILITY_UNSPECIFIED")
      throw errors.notImplemented(`${String(vis)} services (field ${at}.visibility): PRIVATE and PUBLIC services are offered`);
    if (kind !== undefined && !tls && !https)
      v.push({
        field: `${at}.endpoint.kind`,
        description: `an endpoint is ENDPOINT_KIND_HTTPS or ENDPOINT_KIND_TLS_PASSTHROUGH, not ${String(kind)}`,
      });
    // Both endpoint kinds are PUBLIC ports; placement refuses each, with the SDK's reason where it has
    // one, where no runner offers it (a TLS listener; an https:// HANGAR_PUBLIC_URL; the share-token check).
    if ((tls || https) && vis !== "VISIBILITY_PUBLIC")
      v.push({
        field: `${at}.visibility`,
        description: `${tls ? "a TLS passthrough" : "an HTTPS"} endpoint is PUBLIC (set visibility PUBLIC)`,
      });
    // TLS passthrough: a TCP stream whose TLS the sandbox terminates; auth and request timeouts are HTTP's.
    if (tls && auth !== "ENDPOINT_AUTH_UNSPECIFIED")
      v.push({ field: `${at}.endpoint.auth`, description: "a TLS passthrough endpoint takes no auth: the sandbox terminates TLS itself" });
    if (tls && timeout !== 0)
      v.push({
        field: `${at}.endpoint.request_timeout_seconds`,
        description: "a TLS passthrough endpoint is a TCP stream with no request timeout",
      });
    if (https && auth !== "ENDPOINT_AUTH_OPEN" && auth !== "ENDPOINT_AUTH_SHARE_TOKEN")
      v.push({
        field: `${at}.endpoint.auth`,
        description: "required for an HTTPS endpoint: ENDPOINT_AUTH_OPEN or ENDPOINT_AUTH_SHARE_TOKEN",
      });
    if (https && timeout !== 0 && (!Number.isInteger(timeout) || timeout < 15 || timeout > 900))
      v.push({ field: `${at}.endpoint.request_timeout_seconds`, description: "0 (the Gateway's own) or 15 to 900 seconds" });
    else if (https && timeout !== 0)
      throw errors.notImplemented(
        `per-endpoint request timeouts (field ${at}.endpoint.request_timeout_seconds): Hangar's routes carry none, requests get the operator's Gateway timeouts (send 0)`,
      );
    const port = Number(svc.port ?? 0);
    if (!Number.isInteger(port) || port < 1 || port > 65535) v.push({ field: `${at}.port`, description: "must be a port from 1 to 65535" });
    const protoName = svc.protocol ?? "SERVICE_PROTOCOL_UNSPECIFIED";
    const protocol =
      protoName === "SERVICE_PROTOCOL_UDP"
        ? "UDP"
        : protoName === "SERVICE_PROTOCOL_SCTP"
          ? "SCTP"
          : protoName === "SERVICE_PROTOCOL_TCP" || protoName === "SERVICE_PROTOCOL_UNSPECIFIED"
            ? "TCP"
            : undefined;
    if (!protocol) v.push({ field: `${at}.protocol`, description: `unknown protocol ${String(protoName)}` });
    const name = svc.name ?? "";
    if (name && !/^[a-z]([-a-z0-9]{0,13}[a-z0-9])?$/.test(name))
      v.push({ field: `${at}.name`, description: "a port name: at most 15 characters of a-z, 0-9, '-', starting with a letter" });
    if (out.some((o) => o.port === port && o.protocol === protocol))
      v.push({ field: `${at}.port`, description: `port ${port}/${protocol} is named twice` });
    if (name && out.some((o) => o.name === name)) v.push({ field: `${at}.name`, description: `name ${name} is used twice` });
    const isPublic = vis === "VISIBILITY_PUBLIC";
    if (isPublic && protocol && protocol !== "TCP")
      v.push({ field: `${at}.protocol`, description: `a PUBLIC service is ${tls ? "TLS" : "HTTP"} over TCP, not ${protocol}` });
    const endpoint =
      isPublic && tls
        ? { tls: true as const }
        : isPublic && https
          ? { https: true as const, ...(auth === "ENDPOINT_AUTH_SHARE_TOKEN" ? { shareToken: true as const } : {}) }
          : {};
    out.push({ port, protocol: protocol ?? "TCP", ...(name ? { name } : {}), ...(isPublic ? { public: true as const } : {}), ...endpoint });
  });
  const publicAt = out.findIndex((p) => p.public);
  if (publicAt >= 0 && out.some((p) => !p.public)) {
    throw errors.notImplemented(
      `PUBLIC and PRIVATE services on one sandbox (field ${base}.services[${publicAt}].visibility): give every service of a sandbox one visibility`,
    );
  }
  if (out.length > LIMITS.services) v.push({ field: `${base}.services`, description: `at most ${LIMITS.services} services` });
  return out;
}
