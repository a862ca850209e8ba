// proto/ must describe exactly the wire format of the newest SDK's descriptor set
// (../shared/api/cwsandbox-1.22.0.protoset), stay compatible with the pinned SDK's own
// descriptors (test/fixtures/cwsandbox-<version>.binpb, extracted from its wheel), and keep
// every number the older 1.6 contract used meaning the same (../shared/api/coreweave-sandbox-v1.binpb).
import { readFileSync } from "node:fs";
import path from "node:path";
import protobuf from "protobufjs";
import descriptor from "protobufjs/ext/descriptor/index.js";
import { describe, expect, it } from "vitest";
import { SDK_ONLY_METHODS } from "../../api/sdk-only-methods.js";
import { signatures, type Signatures } from "./wire-signature.js";

const PKG = "coreweave.sandbox.v1";
const repo = path.resolve(import.meta.dirname, "../..");
const FILES = ["sandbox", "discovery", "settings", "sandbox_template", "volume", "runtime_class", "sandbox_data_plane"].map(
  (f) => `coreweave/sandbox/v1/${f}.proto`,
);

function fromSet(file: string): protobuf.Root {
  const set = (descriptor as unknown as { FileDescriptorSet: protobuf.Type }).FileDescriptorSet.decode(readFileSync(file));
  return (protobuf.Root as unknown as { fromDescriptor(d: unknown): protobuf.Root }).fromDescriptor(set).resolveAll() as protobuf.Root;
}

function fromProtoFiles(): protobuf.Root {
  const root = new protobuf.Root();
  root.resolvePath = (_origin, target) => {
    const local = path.join(repo, "proto", target);
    try {
      readFileSync(local);
      return local;
    } catch {
      return path.join(repo, "node_modules/protobufjs", target);
    }
  };
  return root.loadSync(FILES, { keepCase: true, alternateCommentMode: false }).resolveAll() as protobuf.Root;
}

function diff(a: Signatures, b: Signatures): string[] {
  const lines: string[] = [];
  for (const [k, v] of a) if (b.get(k) !== v) lines.push(`${k}: ours=${v} theirs=${b.get(k) ?? "<missing>"}`);
  return lines;
}

describe("proto/ wire format", () => {
  const ours = signatures(fromProtoFiles(), PKG);
  const contract = signatures(fromSet(path.join(repo, "../shared/api/cwsandbox-1.22.0.protoset")), PKG);

  it("covers the whole contract", () => {
    expect(contract.size).toBeGreaterThan(500);
    expect([...contract.keys()].filter((k) => k.startsWith("service ")).sort()).toEqual([
      `service ${PKG}.DiscoveryService`,
      `service ${PKG}.SandboxDataPlaneService`,
      `service ${PKG}.SandboxService`,
      `service ${PKG}.SandboxTemplateService`,
      `service ${PKG}.SettingsService`,
      `service ${PKG}.VolumeService`,
    ]);
  });

  it("is identical to the contract's FileDescriptorSet element by element", () => {
    expect(diff(ours, contract)).toEqual([]);
    expect(diff(contract, ours)).toEqual([]);
  });

  it("notices a changed field number (the comparison can fail)", () => {
    const tampered = new Map(ours);
    tampered.set(`field ${PKG}.SandboxStatus.exit_code`, "#10 int32 optional");
    expect(diff(tampered, contract)).toHaveLength(1);
  });

  it("marks proto3 optional, oneofs, maps and streaming as the contract does", () => {
    expect(ours.get(`field ${PKG}.SandboxStatus.exit_code`)).toBe("#9 int32 optional");
    expect(ours.get(`field ${PKG}.NetworkOptions.deny_egress`)).toBe("#3 bool optional");
    expect(ours.get(`field ${PKG}.ExecStreamRequest.stdin`)).toBe("#2 bytes singular oneof=message");
    expect(ours.get(`field ${PKG}.SandboxSpec.annotations`)).toBe("#11 map<string,string>");
    expect(ours.get(`field ${PKG}.EgressRule.https_hostname`)).toBe("#2 string singular oneof=destination");
    expect(ours.get(`value ${PKG}.State.STATE_PREPARING`)).toBe("9");
    expect(ours.get(`method ${PKG}.SandboxService.StreamExec`)).toBe(
      `stream ${PKG}.ExecStreamRequest -> stream ${PKG}.ExecStreamResponse`.replace(/(\S+)\.(\w+)/g, ".$1.$2"),
    );
  });

  it("keeps every number of the 1.6 contract meaning the same (older SDKs still work)", () => {
    const oursByNumber = signatures(fromProtoFiles(), PKG, true);
    const old = signatures(fromSet(path.join(repo, "../shared/api/coreweave-sandbox-v1.binpb")), PKG, true);
    // 1.22 reserved what it removed (primary_container, init_containers): older SDKs may still send them.
    const changed = diff(old, oursByNumber).filter((line) => !/^field \S+\.(Partial)?SandboxSpec#(2|12): .* theirs=reserved$/.test(line));
    expect(changed).toEqual([]);
  });

  it("is wire-compatible with the pinned SDK's own descriptors (every number we use means the same there)", () => {
    const version = readFileSync(path.join(repo, "test/fixtures/SDK_VERSION"), "utf8").trim();
    const sdkRoot = fromSet(path.join(repo, `test/fixtures/cwsandbox-${version}.binpb`));
    const oursByNumber = signatures(fromProtoFiles(), PKG, true);
    const sdk = signatures(sdkRoot, PKG, true);
    // A number the SDK reserved is one it never sends nor reads: harmless for us to keep.
    const incompatible = diff(oursByNumber, sdk).filter((line) => !line.endsWith("theirs=reserved"));
    expect(incompatible).toEqual([]);
    // Every SDK method exists on our side too, or is one whose absence the SDK handles
    // (ConnectSandbox: UNIMPLEMENTED makes the SDK keep using the gateway path).
    const sdkMethods = [...sdk.entries()].filter(([k]) => k.startsWith("method ") && !ours.has(k));
    const known = new Map(SDK_ONLY_METHODS.map((m) => [m.path.slice(1).replace("/", "."), m]));
    for (const [key, sig] of sdkMethods) {
      const m = known.get(key.slice("method ".length));
      expect(m, `${key} is not registered in api/sdk-only-methods.ts`).toBeDefined();
      expect(sig.startsWith("stream "), `${key} client streaming`).toBe(m?.clientStream);
      expect(sig.includes("-> stream "), `${key} server streaming`).toBe(m?.serverStream);
    }
  });
});
