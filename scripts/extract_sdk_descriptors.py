"""Extract the FileDescriptorProtos embedded in the installed cwsandbox wheel.

The SDK's generated `cwsandbox/_proto/*_pb2.py` modules carry their descriptors as
`AddSerializedFile(b'...')`. Importing them registers the files in the default pool;
we collect the coreweave files plus their transitive dependencies into one
FileDescriptorSet, in dependency order, and write it to the path given.
"""
import importlib
import pkgutil
import sys

from google.protobuf import descriptor_pb2, descriptor_pool


def main(out_path: str) -> None:
    import cwsandbox._proto as protos

    for mod in pkgutil.iter_modules(protos.__path__):
        if mod.name.endswith("_pb2"):
            importlib.import_module(f"cwsandbox._proto.{mod.name}")
    pool = descriptor_pool.Default()
    fds = descriptor_pb2.FileDescriptorSet()
    seen: set[str] = set()

    def add(name: str) -> None:
        if name in seen:
            return
        seen.add(name)
        fd = pool.FindFileByName(name)
        for dep in fd.dependencies:
            add(dep.name)
        proto = descriptor_pb2.FileDescriptorProto()
        fd.CopyToProto(proto)
        fds.file.append(proto)

    for mod in sorted(pkgutil.iter_modules(protos.__path__), key=lambda m: m.name):
        if not mod.name.endswith("_pb2"):
            continue
        m = importlib.import_module(f"cwsandbox._proto.{mod.name}")
        add(m.DESCRIPTOR.name)
    with open(out_path, "wb") as f:
        f.write(fds.SerializeToString(deterministic=True))
    import cwsandbox

    print(f"cwsandbox {getattr(cwsandbox, '__version__', '?')}: {len(fds.file)} files -> {out_path}")


if __name__ == "__main__":
    main(sys.argv[1])
