"""Render .proto sources from a FileDescriptorSet (bootstrap tool for proto/).

Used once to write proto/ from the SDK's descriptor set; the .proto files are the source
of truth afterwards and test/unit/proto-wire.test.ts proves they stay wire-identical.
Usage: python scripts/descriptor_to_proto.py SET.binpb OUT_DIR [FILE ...]
Handles proto3 files: messages, nested types, enums, maps, oneofs, proto3 optional,
services with streaming flags, google.api.http and field_behavior annotations.
"""
import os
import sys

from google.api import annotations_pb2, field_behavior_pb2, http_pb2  # noqa: F401
from google.protobuf import descriptor_pb2 as d

T = d.FieldDescriptorProto
SCALARS = {
    T.TYPE_DOUBLE: "double", T.TYPE_FLOAT: "float", T.TYPE_INT64: "int64",
    T.TYPE_UINT64: "uint64", T.TYPE_INT32: "int32", T.TYPE_FIXED64: "fixed64",
    T.TYPE_FIXED32: "fixed32", T.TYPE_BOOL: "bool", T.TYPE_STRING: "string",
    T.TYPE_BYTES: "bytes", T.TYPE_UINT32: "uint32", T.TYPE_SFIXED32: "sfixed32",
    T.TYPE_SFIXED64: "sfixed64", T.TYPE_SINT32: "sint32", T.TYPE_SINT64: "sint64",
}
BEHAVIOR = {v.number: v.name for v in field_behavior_pb2.DESCRIPTOR.enum_types_by_name["FieldBehavior"].values}


def type_name(f: d.FieldDescriptorProto) -> str:
    if f.type in SCALARS:
        return SCALARS[f.type]
    return f.type_name  # fully qualified with leading dot


def field_options(f: d.FieldDescriptorProto) -> str:
    opts = []
    raw = f.options.SerializeToString()
    if raw:
        o = d.FieldOptions.FromString(raw)
        beh = list(o.Extensions[field_behavior_pb2.field_behavior])
        for b in beh:
            opts.append(f"(google.api.field_behavior) = {BEHAVIOR[b]}")
        if o.deprecated:
            opts.append("deprecated = true")
        if o.HasField("packed"):
            opts.append(f"packed = {'true' if o.packed else 'false'}")
    if f.json_name and f.json_name != camel(f.name):
        opts.append(f'json_name = "{f.json_name}"')
    return f" [{', '.join(opts)}]" if opts else ""


def camel(name: str) -> str:
    parts = name.split("_")
    return parts[0] + "".join(p[:1].upper() + p[1:] for p in parts[1:])


def render_enum(e: d.EnumDescriptorProto, ind: str) -> list[str]:
    out = [f"{ind}enum {e.name} {{"]
    if e.options.allow_alias:
        out.append(f"{ind}  option allow_alias = true;")
    for v in e.value:
        dep = " [deprecated = true]" if v.options.deprecated else ""
        out.append(f"{ind}  {v.name} = {v.number}{dep};")
    out.append(f"{ind}}}")
    return out


def render_message(m: d.DescriptorProto, ind: str) -> list[str]:
    out = [f"{ind}message {m.name} {{"]
    if m.options.deprecated:
        out.append(f"{ind}  option deprecated = true;")
    maps = {n.name: n for n in m.nested_type if n.options.map_entry}
    for n in m.nested_type:
        if not n.options.map_entry:
            out += render_message(n, ind + "  ")
    for e in m.enum_type:
        out += render_enum(e, ind + "  ")
    for r in m.reserved_range:
        out.append(f"{ind}  reserved {r.start}{'' if r.end == r.start + 1 else f' to {r.end - 1}'};")
    for n in m.reserved_name:
        out.append(f'{ind}  reserved "{n}";')
    emitted_oneofs = set()
    for f in m.field:
        real_oneof = f.HasField("oneof_index") and not f.proto3_optional
        if real_oneof:
            idx = f.oneof_index
            if idx in emitted_oneofs:
                continue
            emitted_oneofs.add(idx)
            out.append(f"{ind}  oneof {m.oneof_decl[idx].name} {{")
            for g in m.field:
                if g.HasField("oneof_index") and g.oneof_index == idx and not g.proto3_optional:
                    out.append(f"{ind}    {type_name(g)} {g.name} = {g.number}{field_options(g)};")
            out.append(f"{ind}  }}")
            continue
        entry_name = f.type_name.rsplit(".", 1)[-1]
        if f.label == T.LABEL_REPEATED and f.type == T.TYPE_MESSAGE and entry_name in maps \
                and f.type_name.endswith(f"{m.name}.{entry_name}"):
            e = maps[entry_name]
            k, v = e.field[0], e.field[1]
            out.append(f"{ind}  map<{type_name(k)}, {type_name(v)}> {f.name} = {f.number}{field_options(f)};")
            continue
        label = "repeated " if f.label == T.LABEL_REPEATED else ("optional " if f.proto3_optional else "")
        out.append(f"{ind}  {label}{type_name(f)} {f.name} = {f.number}{field_options(f)};")
    out.append(f"{ind}}}")
    return out


def render_http(rule: http_pb2.HttpRule, ind: str) -> list[str]:
    kind = rule.WhichOneof("pattern")
    out = [f"{ind}option (google.api.http) = {{"]
    if kind == "custom":
        out.append(f'{ind}  custom: {{kind: "{rule.custom.kind}" path: "{rule.custom.path}"}}')
    else:
        out.append(f'{ind}  {kind}: "{getattr(rule, kind)}"')
    if rule.body:
        out.append(f'{ind}  body: "{rule.body}"')
    if rule.response_body:
        out.append(f'{ind}  response_body: "{rule.response_body}"')
    for extra in rule.additional_bindings:
        k = extra.WhichOneof("pattern")
        out.append(f'{ind}  additional_bindings {{{k}: "{getattr(extra, k)}"' + (f' body: "{extra.body}"' if extra.body else "") + "}")
    out.append(f"{ind}}};")
    return out


def render_file(f: d.FileDescriptorProto) -> str:
    out = [
        "// Code rendered from the coreweave.sandbox.v1 FileDescriptorSet by",
        "// scripts/descriptor_to_proto.py; test/unit/proto-wire.test.ts keeps it wire-identical.",
        f'syntax = "{f.syntax or "proto2"}";',
        "",
        f"package {f.package};",
        "",
    ]
    for dep in f.dependency:
        out.append(f'import "{dep}";')
    if f.dependency:
        out.append("")
    o = f.options
    for name in ("java_package", "java_outer_classname", "go_package", "objc_class_prefix", "csharp_namespace"):
        if o.HasField(name):
            out.append(f'option {name} = "{getattr(o, name)}";')
    for name in ("java_multiple_files", "cc_enable_arenas"):
        if o.HasField(name):
            out.append(f"option {name} = {'true' if getattr(o, name) else 'false'};")
    out.append("")
    for e in f.enum_type:
        out += render_enum(e, "")
        out.append("")
    for m in f.message_type:
        out += render_message(m, "")
        out.append("")
    for ext in f.extension:
        out.append(f"extend {ext.extendee} {{")
        label = "repeated " if ext.label == T.LABEL_REPEATED else ""
        out.append(f"  {label}{type_name(ext)} {ext.name} = {ext.number};")
        out.append("}")
        out.append("")
    for s in f.service:
        out.append(f"service {s.name} {{")
        for meth in s.method:
            cs = "stream " if meth.client_streaming else ""
            ss = "stream " if meth.server_streaming else ""
            head = f"  rpc {meth.name}({cs}{meth.input_type}) returns ({ss}{meth.output_type})"
            mo = d.MethodOptions.FromString(meth.options.SerializeToString())
            if mo.HasExtension(annotations_pb2.http):
                out.append(head + " {")
                out += render_http(mo.Extensions[annotations_pb2.http], "    ")
                out.append("  }")
            else:
                out.append(head + ";")
        out.append("}")
        out.append("")
    return "\n".join(out).rstrip() + "\n"


def main() -> None:
    src, out_dir, *only = sys.argv[1:]
    fds = d.FileDescriptorSet.FromString(open(src, "rb").read())
    for f in fds.file:
        if f.name.startswith("google/protobuf/") or (only and f.name not in only):
            continue
        path = os.path.join(out_dir, f.name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as fh:
            fh.write(render_file(f))
        print("wrote", path)


if __name__ == "__main__":
    main()
