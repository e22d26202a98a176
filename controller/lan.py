"""The addresses a tablet on the table's network types to reach the panel.

The box's name on the LAN is <hostname>.local (avahi announces it, and `make install` installs
avahi); a tablet that doesn't resolve .local names (some Android versions) needs the box's IPv4
address instead. Both are said where the owner looks: at the end of `make install`, and in the
log each time the panel starts listening on the LAN (the journal on a Pi), so the first boot of a
box with no screen still tells the table where to go.

Standard library only (the installer imports it); Linux's interfaces are read with the ioctl
that `ip` and `ifconfig` use, not by running them.
"""

import re
import socket
import struct
from typing import Any, Callable

SIOCGIFADDR = 0x8915        # linux/sockios.h: an interface's IPv4 address


def ipv4_addresses() -> list[str]:
    """This machine's IPv4 addresses but loopback's, in interface order; [] where unknown."""
    try:
        names = [name for _, name in socket.if_nameindex()]
    except OSError:
        return []
    found = []
    try:
        import fcntl
    except ImportError:         # not Linux or a BSD: no ioctl to ask
        return []
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        for name in names:
            try:
                packed = fcntl.ioctl(s.fileno(), SIOCGIFADDR, struct.pack("256s", name.encode()[:15]))
            except OSError:     # no IPv4 address on it (down, or IPv6 only)
                continue
            address = socket.inet_ntoa(packed[20:24])
            if not address.startswith("127.") and address not in found:
                found.append(address)
    return found


_ANNOUNCED = re.compile(r's "([a-z0-9-]+(?:\.[a-z0-9-]+)*\.local)"\s*')


def announced_name(run: Callable[..., Any] | None = None) -> str | None:
    """The .local name avahi announces for this box, as avahi has it now: "raspberrypi-2.local"
    when another box on the network was raspberrypi.local first (then hostname + ".local" would
    send a tablet to the other box); None where avahi doesn't answer (not installed, not running,
    no D-Bus). Asked over D-Bus with busctl, in a process of its own: a few milliseconds, so it is
    asked when needed, not at every start."""
    import subprocess
    run = run or subprocess.run
    try:
        done = run(["busctl", "--system", "call", "org.freedesktop.Avahi", "/", "org.freedesktop.Avahi.Server",
                    "GetHostNameFqdn"], capture_output=True, text=True, timeout=3)
    except (OSError, subprocess.SubprocessError):
        return None
    m = _ANNOUNCED.fullmatch((done.stdout or "").lower()) if done.returncode == 0 else None
    return m.group(1) if m else None


def tablet_urls(hostname: str, port: int, addresses: list[str] | tuple[str, ...], local: str | None = None) -> list[str]:
    """The .local name first (it survives a new DHCP lease): ``local``, avahi's when asked, else
    the hostname's; then each address."""
    if local:
        urls = ["http://%s:%d/" % (local, port)]
    else:
        urls = ["http://%s.local:%d/" % (hostname.split(".")[0], port)] if hostname else []
    urls += ["http://%s:%d/" % ("[%s]" % a if ":" in a else a, port) for a in addresses]
    return urls


def listening_on_lan(host: str) -> bool:
    """Whether a panel bound to `host` can be reached from a tablet at all."""
    return host in ("", "0.0.0.0", "::") or not (host.startswith("127.") or host in ("::1", "localhost"))
