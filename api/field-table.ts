/** docs/fields.md, rendered from the descriptors and the rules of api/field-policy.ts. */
import protobuf from "protobufjs";
import { FIELD_RULES, GUARDED_SERVICES, METHOD_RULES, type Rule, SERVICE_RULES } from "./field-policy.js";

const cell = (s: string) => s.replace(/\|/g, "\\|");

/** The tests a rule names (honoured rules always name one: test/unit/field-policy.test.ts). */
const shownBy = (rule: Rule | undefined) => (rule && "tests" in rule && rule.tests ? rule.tests.map((t) => `\`${t}\``).join("<br>") : "");

function describe(rule: Rule | undefined): [string, string] {
  if (!rule) return ["**no rule**", "refused as unknown"];
  if ("honoured" in rule) return ["honoured", rule.honoured];
  if ("checked" in rule) return ["checked", rule.checked];
  if ("output" in rule) return ["output only", "ignored on input (OUTPUT_ONLY in the contract)"];
  return [
    "refused",
    `${rule.unimplemented ? "UNIMPLEMENTED (CWSANDBOX_NOT_IMPLEMENTED)" : "INVALID_ARGUMENT naming the field"}: ${rule.refused}`,
  ];
}

function rows(t: protobuf.Type, base: string, stack: Set<string>, out: string[]) {
  if (stack.has(t.fullName)) return;
  stack.add(t.fullName);
  for (const f of t.fieldsArray) {
    f.resolve();
    const at = `${base}${f.name}${f.repeated || f.map ? "[]" : ""}`;
    const rule = FIELD_RULES[`${t.name}.${f.name}`];
    const [k, text] = describe(rule);
    out.push(`| \`${at}\` | ${k} | ${cell(text)} | ${cell(shownBy(rule))} |`);
    const nested = f.resolvedType;
    if (rule && ("honoured" in rule || "checked" in rule) && nested instanceof protobuf.Type && !nested.fullName.startsWith(".google."))
      rows(nested, `${at}.`, stack, out);
  }
  stack.delete(t.fullName);
}

export function fieldTable(root: protobuf.Root): string {
  const out = [
    "# Request fields: honoured or refused",
    "",
    "Generated from `proto/` (the cwsandbox 1.22.0 contract) and the rules in `api/field-policy.ts` by",
    "`make fields`; `test/unit/field-policy.test.ts` fails when a request field has no rule or this file is",
    "stale. **honoured**: Hangar does what the field asks (how, per runtime where they differ). **checked**:",
    "the handler's own validation honours some values and refuses others with the typed error named.",
    "**refused**: any value but the default is refused with the error named, before anything runs.",
    "**output only**: the contract marks it OUTPUT_ONLY; a value sent in a request is ignored (AIP-203).",
    "**shown by**: the tests that show the field's effect (every honoured field names one; the field-policy",
    "test fails when one is missing or names a test that does not exist).",
    "",
    "## Which fields a warm pool pod takes (Kubernetes)",
    "",
    "A create is served by a pool pod (`HANGAR_KUBE_WARM_POOLS`; reused pods too, `HANGAR_KUBE_POOL_REUSE`,",
    "ADR 0040) without a cold start when its pod would be the pool's: the same image, the pool's cpu/memory",
    "requests and limits, the same runner. What the claim applies itself (ADR 0041): **env vars**",
    "(`environment_variables`, applied to every exec), **secrets** (`secrets`: written into the sandbox as a",
    "0600 file every command sources; never in the pod object), **mounted files** (`mounted_files`, written at",
    "claim; into the sandbox's cell on a reused pod), a **working directory** (`working_dir`) its pool's pods",
    "were not made with (made at claim, every command started there), **tags**, **annotations**, the",
    "**lifetime** and the tenant; secrets and a working directory take a pod whose image has `/bin/sh`.",
    "**Hostname egress grants** (`network.egress` rules that name only `dns_name`s) go warm under netinit",
    "enforcement in a `+https` pool (`image=size+https`, ADR 0042): its pods' rules reach Hangar's egress",
    "proxy and nothing else, the claim names the sandbox's own names to the proxy and gives its commands",
    "`HTTPS_PROXY`. **Egress rules by address, port or `any`** go warm in a `+egress` pool (ADR 0044): the",
    "claim loads the sandbox's own rules (what its cold pod would start with) through the pod's hangar-net",
    "sidecar before it runs, and the return the idle pod's. **Scratch volumes** go warm in reused pool pods (`HANGAR_KUBE_POOL_REUSE`): the claim",
    "makes the sandbox's cell with them (a sized one a tmpfs of its size, ENOSPC past it; subPath and",
    "read-only kept; ADR 0042). **CPU and memory limits** (`resources`) go warm in a sized pool",
    "(`image=size+cpu:<q>+memory:<q>`, reused pods, ADR 0043) when the sandbox limits exactly what the pool",
    "caps, within the caps: the claim resizes the pod in place to the sandbox's requests and limits and the",
    "sandbox is RUNNING once the pod's cgroup shows them; a pod whose memory limit an earlier sandbox raised",
    "above the ask is not used. What still needs a cold pod: its own main process (command, args, image",
    "entrypoint), registered volumes, volumes restored from a snapshot, scratch volumes where pods are not",
    "reused, image pull credentials, a runtime class, service ports, a startup",
    "probe, sidecars or a Compose file, host aliases, GPUs, egress rules by address, port or `any` where no",
    "`+egress` pool serves the image, and resources no pool's shape or caps hold (Kubernetes",
    "1.33 cannot lower a running container's memory limit, nor change a pod's QoS class, in place). A sandbox that",
    "starts cold while pools are configured says why in its status (`cold start: ...`, from its create",
    "until it runs and in the note it runs with): no pool for its image, runner or egress, other resources",
    "than the pools', the field no pool pod takes, egress rules, or its pool had no idle pod.",
    "",
    "## Services refused as a whole",
    "",
    "| service | every method answers |",
    "|---|---|",
    ...Object.entries(SERVICE_RULES).map(([s, why]) => `| \`${s}\` | ${cell(why)} |`),
    "",
  ];
  for (const s of GUARDED_SERVICES) {
    const svc = root.lookupService(s);
    for (const m of svc.methodsArray) {
      m.resolve();
      const req = m.resolvedRequestType as protobuf.Type;
      out.push(`## ${svc.name}.${m.name} (\`${req.name}\`)`, "");
      const refused = METHOD_RULES[`${svc.name}.${m.name}`];
      if (refused) {
        out.push(`Refused as a whole: ${refused}.`, "");
        continue;
      }
      out.push("| field | | what Hangar does | shown by |", "|---|---|---|---|");
      rows(req, "", new Set(), out);
      out.push("");
    }
  }
  return out.join("\n");
}
