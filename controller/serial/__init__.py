"""The phone in a box: a Pico inside the phone, on USB serial (docs/protocol.md).

protocol.py is pure and MicroPython-safe (the Pico runs it too); session.py is the host's end
of the link, pure, the mirror of firmware/link.py; bridge.py (the port and its reader thread)
and finder.py (which port, by USB id) are the host's adapters.
"""
