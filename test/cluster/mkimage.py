#!/usr/bin/env python3
"""mkimage.py [--user=UID:GID] [--workdir=DIR] [--env=K=V ...] ROOTDIR OUT.tar NAME:TAG [ENTRYPOINT...]:
pack a directory as a single-layer docker-archive that `ctr images import` accepts (no Docker needed)."""
import hashlib
import io
import json
import os
import sys
import tarfile
import tempfile

opts = {"user": None, "workdir": None, "env": []}
args = sys.argv[1:]
while args and args[0].startswith("--"):
    k, _, v = args.pop(0)[2:].partition("=")
    if k == "env":
        opts["env"].append(v)
    elif k in opts:
        opts[k] = v
    else:
        sys.exit(f"mkimage.py: unknown option --{k}")
root, out, tag, entry = args[0], args[1], args[2], args[3:]
tmp = tempfile.NamedTemporaryFile(delete=False, suffix=".tar", dir=os.path.dirname(os.path.abspath(out)))
with tarfile.open(tmp.name, "w", format=tarfile.PAX_FORMAT) as t:
    for name in sorted(os.listdir(root)):
        t.add(os.path.join(root, name), arcname=name, recursive=True)
h = hashlib.sha256()
with open(tmp.name, "rb") as f:
    for chunk in iter(lambda: f.read(1 << 20), b""):
        h.update(chunk)
cfg = {
    "architecture": "amd64",
    "os": "linux",
    "config": {
        "Env": ["PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", "LANG=C.UTF-8", *opts["env"]],
        **({"User": opts["user"]} if opts["user"] else {}),
        **({"WorkingDir": opts["workdir"]} if opts["workdir"] else {}),
        **({"Entrypoint": entry} if entry else {"Cmd": ["sleep", "infinity"]}),
    },
    "rootfs": {"type": "layers", "diff_ids": ["sha256:" + h.hexdigest()]},
}
cb = json.dumps(cfg, sort_keys=True).encode()
cname = hashlib.sha256(cb).hexdigest() + ".json"
lname = h.hexdigest() + "/layer.tar"
man = json.dumps([{"Config": cname, "RepoTags": [tag], "Layers": [lname]}]).encode()
with tarfile.open(out + ".part", "w") as t:
    for n, d in ((cname, cb), ("manifest.json", man)):
        ti = tarfile.TarInfo(n)
        ti.size = len(d)
        t.addfile(ti, io.BytesIO(d))
    t.add(tmp.name, arcname=lname)
os.unlink(tmp.name)
os.rename(out + ".part", out)
