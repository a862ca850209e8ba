/**
 * PUBLIC services: where a sandbox's public port is reached, from the operator's HANGAR_PUBLIC_URL.
 * Two forms (ADR 0021):
 * - host routing, `https://*.sbx.example.com[:port]`: port P of sandbox S is `https://S-P.sbx.example.com/`
 *   (a wildcard DNS name and certificate at the operator's Gateway);
 * - path routing, `http://gw.example.com[:port][/prefix]`: `http://gw.example.com/prefix/S/P/`, the
 *   Gateway strips `/prefix/S/P` before the request reaches the sandbox.
 * Pure: the controller turns it into the URL Get returns, the Kubernetes runtime into an HTTPRoute.
 */

export interface PublicUrlBase {
  scheme: "http" | "https";
  /** Host routing: the domain after `*.`; path routing: the Gateway's host. */
  host: string;
  /** ":8080" or "". */
  port: string;
  wildcard: boolean;
  /** Path routing only: "" or "/prefix" (no trailing slash). */
  prefix: string;
}

const LABEL = "[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?";
const DOMAIN = new RegExp(`^${LABEL}(\\.${LABEL})*$`);
const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;
const PREFIX_SEGMENT = /^[A-Za-z0-9._~-]+$/;

/** Parses HANGAR_PUBLIC_URL; an Error names what is wrong with it. */
export function parsePublicUrl(text: string): PublicUrlBase {
  const m = /^(https?):\/\/([^/:]+)(:\d{1,5})?(\/.*)?$/.exec(text);
  if (!m) throw new Error(`expected http(s)://host[:port][/prefix] or https://*.domain[:port], got ${JSON.stringify(text)}`);
  const [, scheme = "", rawHost = "", rawPort = "", rawPath = ""] = m;
  const port = Number(rawPort.slice(1));
  if (rawPort && (port < 1 || port > 65535)) throw new Error(`port ${rawPort.slice(1)} is not a port from 1 to 65535`);
  const wildcard = rawHost.startsWith("*.");
  const host = (wildcard ? rawHost.slice(2) : rawHost).toLowerCase();
  const ip = IPV4.exec(host);
  if (ip ? !ip.slice(1).every((o) => Number(o) <= 255) : !DOMAIN.test(host))
    throw new Error(`${rawHost} is not a DNS name or an IPv4 address`);
  if (wildcard && ip) throw new Error(`host routing needs a DNS domain after "*.", not an address (${rawHost})`);
  const prefix = rawPath.replace(/\/+$/, "");
  if (wildcard && prefix) throw new Error(`host routing (${rawHost}) takes no path (${rawPath})`);
  if (
    prefix &&
    !prefix
      .slice(1)
      .split("/")
      .every((s) => PREFIX_SEGMENT.test(s))
  )
    throw new Error(`path prefix ${rawPath}: segments of letters, digits and ._~- only`);
  return { scheme: scheme as "http" | "https", host, port: rawPort, wildcard, prefix };
}

export interface PublicRoute {
  /** What Get returns for the port. */
  url: string;
  /** Host routing: the route's host name. */
  hostname?: string;
  /** The path the route matches; path routing strips it before the sandbox sees the request. */
  pathPrefix: string;
}

/** Where port `port` of sandbox `id` is published. */
export function publicRoute(base: PublicUrlBase, id: string, port: number): PublicRoute {
  if (base.wildcard) {
    const hostname = `${id}-${port}.${base.host}`;
    return { url: `${base.scheme}://${hostname}${base.port}/`, hostname, pathPrefix: "/" };
  }
  const pathPrefix = `${base.prefix}/${id}/${port}`;
  return { url: `${base.scheme}://${base.host}${base.port}${pathPrefix}/`, pathPrefix };
}

/**
 * The sandbox and port a request to a public URL is for, from the host and path the Gateway saw
 * (its X-Forwarded-Host and X-Forwarded-Uri): the inverse of publicRoute; undefined for anything
 * publicRoute never makes.
 */
export function publicTarget(base: PublicUrlBase, host: string, uri: string): { id: string; port: number } | undefined {
  const split = (label: string, sep: string) => {
    const at = label.lastIndexOf(sep);
    const port = Number(label.slice(at + 1));
    return at > 0 && /^\d{1,5}$/.test(label.slice(at + 1)) && port >= 1 && port <= 65535 ? { id: label.slice(0, at), port } : undefined;
  };
  if (base.wildcard) {
    const name = host.toLowerCase().replace(/:\d+$/, "");
    const suffix = `.${base.host}`;
    if (!name.endsWith(suffix)) return undefined;
    const label = name.slice(0, -suffix.length);
    return label.includes(".") ? undefined : split(label, "-");
  }
  const path = uri.split("?")[0] ?? "";
  if (!path.startsWith(`${base.prefix}/`)) return undefined;
  const [id = "", port = ""] = path.slice(base.prefix.length + 1).split("/");
  if (!id) return undefined;
  return split(`${id}/${port}`, "/");
}

/**
 * TLS passthrough endpoints (HANGAR_PUBLIC_TLS_ADDRESS, `*.tls.example.com[:port]`, port 443 when
 * omitted): port P of sandbox S is `S-P.tls.example.com:443`; the operator's Gateway sends a TLS
 * connection whose SNI is that name, unopened, to the sandbox's port (a TLSRoute, ADR 0021). The
 * sandbox holds the certificate; the Gateway never sees the plaintext.
 */
export interface PublicTlsBase {
  /** The domain after `*.`. */
  domain: string;
  port: number;
}

/** Parses HANGAR_PUBLIC_TLS_ADDRESS; an Error names what is wrong with it. */
export function parsePublicTlsAddress(text: string): PublicTlsBase {
  const m = /^\*\.([^:/]+)(?::(\d{1,5}))?$/.exec(text);
  if (!m) throw new Error(`expected *.domain[:port] (SNI host names under a wildcard DNS name), got ${JSON.stringify(text)}`);
  const domain = (m[1] ?? "").toLowerCase();
  if (IPV4.test(domain) || !DOMAIN.test(domain)) throw new Error(`${domain} is not a DNS domain (SNI needs a name, not an address)`);
  const port = m[2] === undefined ? 443 : Number(m[2]);
  if (port < 1 || port > 65535) throw new Error(`port ${m[2]} is not a port from 1 to 65535`);
  return { domain, port };
}

/** Where TLS passthrough port `port` of sandbox `id` is reached: the SNI host name and `host:port`. */
export function tlsAddress(base: PublicTlsBase, id: string, port: number): { hostname: string; address: string } {
  const hostname = `${id}-${port}.${base.domain}`;
  return { hostname, address: `${hostname}:${base.port}` };
}
