"""Clean pulse trains: what an ideal rotary dial's contacts do for one digit.

The simulated phone drives mock pins with these; the benchmark's trace generator adds the
dirt of real contacts on top. Pure: times are offsets handed in, nothing reads a clock.

One pulse, at 10 pps and 60/40 break/make::

    pulse  0 ──┐      ┌────┐      ┌──── ...
    (1=break)  └──────┘    └──────┘
               |<-60ms->|<40>|
    offnormal  ┌───────────────────────────── ... ──┐
             ──┘                                     └── rests two blank steps after the last make
"""

from .dialmaps import pulses_for

Edge = tuple[float, str, int]   # (t, line, state)


def digit_edges(digit: int, t0: float = 0.0, pps: float = 10.0, break_ratio: float = 0.6, dial_map: str = "standard",
                offnormal: bool = True, wind_up: float = 0.35, rest_steps: float = 2.0) -> tuple[list[Edge], float]:
    """Edges ``(t, line, state)`` of one digit dialed at ``t0`` (the finger pulls the dial).

    ``wind_up`` is the time the finger takes to pull the dial round before letting go;
    the off-normal contact (if wired) opens at ``t0`` and closes ``rest_steps`` pulse periods
    after the last make. Returns the edges sorted by time and the time of the last pulse edge.
    """
    if not 1.0 <= pps <= 30.0:
        raise ValueError("pulse rate %r pps is not a rotary dial's" % (pps,))
    if not 0.1 < break_ratio < 0.9:
        raise ValueError("break ratio %r is not a rotary dial's" % (break_ratio,))
    n = pulses_for(digit, dial_map)
    period = 1.0 / pps
    brk = period * break_ratio
    edges: list[Edge] = []
    if offnormal:
        edges.append((t0, "offnormal", 1))
    t = t0 + wind_up
    last = t
    for _ in range(n):
        edges.append((t, "pulse", 1))
        edges.append((t + brk, "pulse", 0))
        last = t + brk
        t += period
    if offnormal:
        edges.append((last + rest_steps * period, "offnormal", 0))
    return edges, last
