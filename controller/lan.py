"""The addresses a tablet on the table's network types to reach the panel.

The box's name on the LAN is <hostname>.local (avahi announces it, and `make install` installs
avahi); a tablet that doesn't resolve .local names (some Android versions) needs the box's IPv4
address instead. Both are said where the owner looks: at the end of `make install`, and in the
log each time the panel starts listening on the LAN (the journal on a Pi), so the first boot of a
box with no screen still tells the table where to go.

Standard library only (the installer imports it); Linux's interfaces are read with the ioctl
that `ip` and `ifconfig` use, not by running them.
"""

import socket
import struct

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


def tablet_urls(hostname: str, port: int, addresses: list[str] | tuple[str, ...]) -> list[str]:
    """The .local name first (it survives a new DHCP lease), then each address."""
    urls = ["http://%s.local:%d/" % (hostname.split(".")[0], port)] if hostname else []
    urls += ["http://%s:%d/" % ("[%s]" % a if ":" in a else a, port) for a in addresses]
    return urls


def listening_on_lan(host: str) -> bool:
    """Whether a panel bound to `host` can be reached from a tablet at all."""
    return host in ("", "0.0.0.0", "::") or not (host.startswith("127.") or host in ("::1", "localhost"))
