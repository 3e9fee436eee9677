"""`YANNIV_ADVERTISE_URL=auto`: a process works out the address it advertises to the other
processes of a cluster (docs/cluster.md, routing), for replicas whose address is not known
before they start (docker-compose.yml's `app`, scaled: each container gets its own IP).

`yanniv serve` resolves it once, before the app is made: the address it listens on when that is
a concrete one, else the address its own host name resolves to — in a container, the
container's IP on its network (Docker writes it in /etc/hosts). A name that does not resolve
stops the start: a process advertising nothing usable would silently break the forwards.
"""

from __future__ import annotations

import ipaddress
import socket

AUTO = "auto"
#: Listening addresses that name no interface: the advertised one comes from the host name.
WILDCARDS = {"", "0.0.0.0", "::"}


def advertise_url(value: str, host: str, port: int) -> str:
    """The URL to advertise: `value` itself unless it is `auto`, then `http://<address>:<port>`
    with the address described in the module's docstring."""
    if value.strip().lower() != AUTO:
        return value
    address = socket.gethostname() if host in WILDCARDS else host
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:  # a name: nginx forwards to addresses only
        ip = ipaddress.ip_address(socket.gethostbyname(address))
    return f"http://[{ip}]:{port}" if ip.version == 6 else f"http://{ip}:{port}"
