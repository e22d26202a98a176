"""A table reduced to what the league sees, for the benches that feed a league over MQTT
(bench/league_scale.py, bench/mqtt_cost.py): a store of its own, a bus and a publisher, and a
game of tally played through the Store's own API. One class, so both measure the same table."""

import time


class Table:
    """One simulated table. ``fsync``: the store's writes wait for the disk, as a real table's do
    (off where the bench measures the league, not the disk)."""

    def __init__(self, folder, broker, base, name, fsync=True):
        from controller.bus import Bus
        from controller.mqtt.publisher import MqttPublisher, Settings
        from controller.store import Store

        self.base, self.folder = base, folder
        self.store = Store(folder / "store.sqlite3")
        if not fsync:
            self.store._db.execute("PRAGMA synchronous=OFF")
        self.bus = Bus()
        self.current = None         # as GameSession.current() has it; replaced whole, never changed
        self.history = []           # as GameSession.history() has it, the newest first
        self.publisher = MqttPublisher(self.store, self.bus, Settings(broker.url, base, name, "off"), folder,
                                       game=lambda: self.current, history=lambda: self.history)

    def start(self, players):
        self.scores = {n: 0 for n in players}
        self.game, _, event = self.store.start_game("tally", [{"name": n} for n in self.scores], {},
                                                    {"type": "setup"})
        self.version = 1
        self._show()
        self.bus.publish(event.as_dict())

    def _show(self):
        self.current = {"id": self.game.id, "engine": "tally", "title": "Tally", "version": self.version,
                        "players": [{"name": n} for n in self.scores],
                        "view": {"players": [{"name": n, "score": v} for n, v in self.scores.items()]}}

    def move(self, rng):
        """A point or more for someone, stored and announced: (the game's new version, when it was
        committed, by the wall clock the page's timings share)."""
        who = rng.choice(list(self.scores))
        self.scores[who] += rng.randrange(1, 10)
        _, event = self.store.append_entry(self.game.id, self.version, {"type": "action", "said": who})
        self.version += 1
        self._show()
        committed = time.time()
        self.bus.publish(event.as_dict())
        return self.version, committed

    def finish(self):
        best = max(self.scores.values())
        rows = [{"name": n, "score": v, "winner": v == best} for n, v in self.scores.items()]
        winners = [r["name"] for r in rows if r["winner"]]
        game, event = self.store.end_game(self.game.id, self.version, "finished", winners,
                                          {"winners": winners, "standings": rows})
        self.history.insert(0, {"id": game.id, "engine": "tally", "title": "Tally", "status": "finished",
                                "ended": game.ended, "players": list(self.scores), "winners": winners,
                                "standings": rows})
        self.current = None
        self.bus.publish(event.as_dict())

    def close(self):
        self.publisher.close()
        self.store.close()
