"""The phone in a box: a Pico inside the phone, on USB serial (docs/protocol.md).

protocol.py is pure and MicroPython-safe (the Pico runs it too); bridge.py and finder.py are
the host's adapters.
"""
