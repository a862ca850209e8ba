// Flattens a protobufjs Root into "element -> wire signature" lines so two descriptor
// sources (our .proto files, the SDK's FileDescriptorSet) can be compared element by element.
import protobuf from "protobufjs";

export type Signatures = Map<string, string>;

/**
 * A descriptor-set map field arrives as a repeated nested `XxxEntry` message (key = 1,
 * value = 2) named after the field. protobufjs' fromDescriptor puts the map_entry option on
 * the parent instead of the entry, so recognise the entry by shape and name.
 */
function isMapEntry(t: protobuf.ReflectionObject | null): t is protobuf.Type {
  if (!(t instanceof protobuf.Type) || !t.name.endsWith("Entry")) return false;
  const fields = t.fieldsArray;
  if (fields.length !== 2 || t.fields["key"]?.id !== 1 || t.fields["value"]?.id !== 2) return false;
  const parent = t.parent;
  if (!(parent instanceof protobuf.Type)) return false;
  const pascal = (n: string) =>
    n
      .split("_")
      .map((p) => p.charAt(0).toUpperCase() + p.slice(1))
      .join("");
  return parent.fieldsArray.some((f) => f.repeated && `${pascal(f.name)}Entry` === t.name);
}

function fieldSig(f: protobuf.Field): string {
  f.resolve();
  if (isMapEntry(f.resolvedType)) {
    const entry = f.resolvedType;
    const [k, v] = [entry.fields["key"], entry.fields["value"]];
    v?.resolve();
    return `#${f.id} map<${k?.type},${v?.resolvedType ? v.resolvedType.fullName : v?.type}>`;
  }
  if (f instanceof protobuf.MapField) {
    return `#${f.id} map<${f.keyType},${f.resolvedType ? f.resolvedType.fullName : f.type}>`;
  }
  const type = f.resolvedType ? f.resolvedType.fullName : f.type;
  const label = f.repeated
    ? "repeated"
    : f.options?.proto3_optional || (f.partOf && f.partOf.name === `_${f.name}` && f.partOf.oneof.length === 1)
      ? "optional"
      : "singular";
  const oneof = f.partOf && !(f.partOf.name === `_${f.name}` && f.partOf.oneof.length === 1) ? ` oneof=${f.partOf.name}` : "";
  return `#${f.id} ${type} ${label}${oneof}`;
}

/**
 * byNumber keys fields and enum values by number instead of name: names are not on the
 * wire, so a field renamed at the same number (and type) is still wire-compatible.
 */
export function signatures(root: protobuf.Root, prefix: string, byNumber = false): Signatures {
  const out: Signatures = new Map();
  const walk = (ns: protobuf.NamespaceBase): void => {
    for (const obj of ns.nestedArray) {
      const name = obj.fullName.replace(/^\./, "");
      const inScope = name.startsWith(prefix) || prefix.startsWith(name);
      if (!inScope) continue;
      if (isMapEntry(obj)) continue;
      if (obj instanceof protobuf.Type) {
        out.set(`message ${name}`, "message");
        for (const f of obj.fieldsArray) {
          if (byNumber) out.set(`field ${name}#${f.id}`, fieldSig(f).replace(/ oneof=\S+/, " oneof"));
          else out.set(`field ${name}.${f.name}`, fieldSig(f));
        }
        if (byNumber)
          for (const r of obj.reserved ?? [])
            if (Array.isArray(r)) for (let n = r[0] as number; n <= (r[1] as number); n++) out.set(`field ${name}#${n}`, "reserved");
      } else if (obj instanceof protobuf.Enum) {
        out.set(`enum ${name}`, "enum");
        for (const [k, v] of Object.entries(obj.values)) {
          if (byNumber) out.set(`value ${name}=${v}`, "value");
          else out.set(`value ${name}.${k}`, String(v));
        }
      } else if (obj instanceof protobuf.Service) {
        out.set(`service ${name}`, "service");
        for (const m of obj.methodsArray) {
          m.resolve();
          out.set(
            `method ${name}.${m.name}`,
            `${m.requestStream ? "stream " : ""}${m.resolvedRequestType?.fullName} -> ${m.responseStream ? "stream " : ""}${m.resolvedResponseType?.fullName}`,
          );
        }
      }
      if (obj instanceof protobuf.Namespace || obj instanceof protobuf.Type) walk(obj as protobuf.NamespaceBase);
    }
  };
  walk(root);
  return out;
}
