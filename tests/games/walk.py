"""The walk every engine's undo/redo property takes: moves, undos of the newest move in force,
redos of the newest move undone; each undo must give back exactly the state before the move, each
redo the state after it, and folding the stored entries again must give the state the game is in."""

from controller.games.base import fold

SKIP = object()   # a chooser's answer: that move was refused, try another


class Walk:
    def __init__(self, game, setup_events):
        self.game = game
        self.entries = [(0, {"type": "setup", "events": setup_events})]
        self.state = fold(game, self.entries)
        self.history = [self.state]    # the state after each entry in force (the panel's undo stack)
        self.in_force, self.undone, self.eid = [0], [], 0

    def play(self, kind, events):
        """Store one move's events (a new move ends what could be redone)."""
        self.eid += 1
        for ev in events:
            self.state = self.game.apply(self.state, ev)
        self.entries.append((self.eid, {"type": kind, "events": events}))
        self.in_force.append(self.eid)
        self.undone = []
        self.history.append(self.state)

    def step(self, move, choose):
        """``move`` 0 undoes, 1 redoes (when there is something to), anything else asks
        ``choose(state)`` for (kind, events), SKIP, or None to stop. Returns False to stop."""
        if move == 0 and len(self.in_force) > 1:
            self.eid += 1
            target = self.in_force.pop()
            self.entries.append((self.eid, {"type": "undo", "target": target}))
            self.undone.append((target, self.history.pop()))
            self.state = fold(self.game, self.entries)
            assert self.state == self.history[-1]
        elif move == 1 and self.undone:
            self.eid += 1
            target, after = self.undone.pop()
            self.entries.append((self.eid, {"type": "redo", "target": target}))
            self.in_force.append(target)
            self.state = fold(self.game, self.entries)
            assert self.state == after
            self.history.append(self.state)
        else:
            chosen = choose(self.state)
            if chosen is None:
                return False
            if chosen is not SKIP:
                self.play(*chosen)
        return True

    def refolds(self):
        return fold(self.game, self.entries) == self.state


def check_junk_setup(game, data, junk, option_names):
    """Whatever a start form sends, setup either starts a game the engine can show, or says what
    to fix in a GameError (never another exception)."""
    from hypothesis import strategies as st

    from controller.games.base import GameError

    player = st.one_of(junk, st.fixed_dictionaries({"name": st.one_of(st.text(max_size=3), junk)},
                                                   optional={"colour": junk, "team": junk}))
    players = data.draw(st.one_of(junk, st.lists(player, max_size=7)))
    options = data.draw(st.one_of(junk, st.dictionaries(st.sampled_from(list(option_names) + ["x"]),
                                                        junk, max_size=3)))
    try:
        events = game.setup(players, options)
    except GameError as e:
        assert str(e) and str(e)[0] != " "
        return
    state = game.initial()
    for ev in events:
        state = game.apply(state, ev)
    game.view(state)
    game.offers(state)
