"""A pytest plugin (`-p localhost_names`) that resolves `*.localhost` names to 127.0.0.1, as RFC 6761
(section 6.3) asks of name resolution libraries and as systemd's nss-myhostname and browsers do;
Debian's glibc without nss-myhostname does not. The SDK's own TLS passthrough test connects to the
address Hangar returns (`<id>-<port>.localhost:18443` on the test cluster, whose Gateway listens on
loopback) by its name, which it also sends as SNI: the name must resolve, and only to loopback.
Only this process's lookups change; nothing on the machine does."""
import socket

_getaddrinfo = socket.getaddrinfo


def _resolve(host, *args, **kwargs):
    name = host.decode() if isinstance(host, bytes) else host
    if isinstance(name, str) and name.lower().rstrip(".").endswith(".localhost"):
        host = "127.0.0.1"
    return _getaddrinfo(host, *args, **kwargs)


socket.getaddrinfo = _resolve
