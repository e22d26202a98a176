# Two commands do all set-up: `make run` and `make test` (each builds .venv from pinned requirements).
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
ARGS   ?=
TEST_JOBS ?= auto

.PHONY: run test test-pi check screenshots lint bytecode bench replay clean install uninstall install-plan schematics flash firmware-pins bench-link icons docs update rollback

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# deploy/wheels.py: all of requirements.txt, but on 32-bit ARM, where Pillow and cbor2 are Debian's
$(VENV)/.run-deps: requirements.txt pyproject.toml deploy/wheels.py | $(BIN)/python
	$(BIN)/python deploy/wheels.py requirements.txt > $(VENV)/requirements-here.txt
	$(BIN)/pip install --quiet -r $(VENV)/requirements-here.txt "setuptools>=77"
	@# setuptools warns, at every editable install, that a folder named like a package may shadow it
	PYTHONWARNINGS=ignore::UserWarning $(BIN)/pip install --quiet --no-deps --no-build-isolation -e .
	touch $@

$(VENV)/.test-deps: requirements-dev.txt $(VENV)/.run-deps
	$(BIN)/pip install --quiet -r requirements-dev.txt
	touch $@

run: $(VENV)/.run-deps
	$(BIN)/newsdesk serve $(ARGS)

test: $(VENV)/.test-deps lint bytecode   # a worker per core and one for the files that wait (tests/lanes.py); TEST_JOBS=0: in this process
	$(BIN)/python -m pytest -n $(TEST_JOBS) --dist loadfile $(ARGS)

# The emulated Raspberry Pi (docs/install.md): as root, with debootstrap, qemu-user-static and
# systemd-nspawn; its Debian roots are made once per machine in $$NEWSDESK_PI_ROOTS (default
# /var/cache/newsdesk-pi). It installs the committed HEAD: commit first.
test-pi: $(VENV)/.test-deps
	NEWSDESK_PI_LANE=1 $(BIN)/python -m pytest -p no:cacheprovider tests/pi -q $(ARGS)

check: $(VENV)/.test-deps lint bytecode   # the quick lane between edits: all but the slow and browser tests (under a minute)
	$(BIN)/python -m pytest -n $(TEST_JOBS) --dist loadfile -m "not slow and not browser" -q $(ARGS)

screenshots: $(VENV)/.test-deps   # the browser tests, keeping a picture of each screen in test-artifacts/ to look at
	NEWSDESK_PICTURES=1 $(BIN)/python -m pytest -n $(TEST_JOBS) --dist loadfile -m browser -q $(ARGS)

# Where PYTHONDONTWRITEBYTECODE is set (as on many CI machines), Python compiles every module in
# every process that imports it: each test worker and each server or CLI a test starts. Compiled
# once here (a second), make test spends about 10 CPU-seconds less (docs/benchmarks.md). And
# pytest rewrites every test module's asserts in every worker: written once here
# (tests/rewritten_once.py), each worker collects in 4 CPU-s instead of 12 to 16 here.
bytecode: $(VENV)/.test-deps
	$(BIN)/python -m compileall -q -j 0 newsdesk controller web_ui schematics deploy firmware tests
	$(BIN)/python tests/rewritten_once.py

lint: $(VENV)/.test-deps   # ruff over everything, mypy over the pure floor (settings in pyproject.toml)
	$(BIN)/ruff check --quiet .
	$(BIN)/mypy

bench: $(VENV)/.test-deps
	$(BIN)/python bench/dial_decoder.py
	$(BIN)/python bench/store_crash.py latency --appends 2000
	$(BIN)/python bench/oracle_latency.py
	$(BIN)/python bench/panel_weight.py
	$(BIN)/python bench/panel_latency.py
	$(BIN)/python bench/panel_memory.py
	$(BIN)/python bench/panel_streams.py
	$(BIN)/python bench/static_cache.py

install:        # Raspberry Pi OS: packages, I2C, venv, the systemd service; prints the panel's address
	sudo $(PYTHON) deploy/install.py $(ARGS)

uninstall:      # the service stopped and removed; the games, the checkout and the packages stay (it says where)
	sudo $(PYTHON) deploy/install.py --remove $(ARGS)

install-plan:   # what make install would do, without doing it
	$(PYTHON) deploy/install.py --dry-run $(ARGS)

# update and rollback install the packages themselves, in their order: make's venv rule in front
# of them would reinstall first (a box from make install has none of make's stamps), and after an
# update whose packages failed, stop the rollback at the same failure
update: | $(BIN)/python   # check first, back up, record the way back, fast-forward, reinstall, migrate; prints the way back (ARGS=--dry-run: the plan)
	$(BIN)/python deploy/update.py $(ARGS)

rollback: | $(BIN)/python   # back to the code and data before the last update (or BACKUP=FILE COMMIT=SHA)
	$(BIN)/python deploy/update.py --rollback $(if $(BACKUP),--backup "$(BACKUP)") $(if $(COMMIT),--commit "$(COMMIT)") $(ARGS)

firmware-pins: $(VENV)/.run-deps
	$(BIN)/python firmware/tools/genpins.py

flash: $(VENV)/.test-deps firmware-pins   # the phone in a box: a Pico on USB (firmware/README.md)
	$(BIN)/python firmware/tools/flash.py $(ARGS)

bench-link: $(VENV)/.test-deps
	$(BIN)/python firmware/tools/bench_link.py

schematics: $(VENV)/.test-deps
	$(BIN)/python -m schematics.generate

docs: $(VENV)/.run-deps   # docs/games.md's options tables, from each game's declaration; docs/new-game.md's reference, from the kit
	$(BIN)/newsdesk games --write-doc docs/games.md
	$(BIN)/python -m controller.kit_doc docs/new-game.md

icons: $(VENV)/.test-deps   # the home-screen icons, drawn from web_ui/static/favicon.svg (docs/tablet.md)
	$(BIN)/python -m web_ui.icons

TRACES ?= ../shared/traces/*.csv
replay: $(VENV)/.run-deps   # the decoder on recorded traces (TRACES=files; default: the examples beside the checkout)
	@ls $(TRACES) >/dev/null 2>&1 || { echo "make replay: no traces at $(TRACES): name some with TRACES=path/*.csv (docs/dial-trace.md)"; exit 2; }
	$(BIN)/newsdesk dial replay $(TRACES)

clean:
	rm -rf $(VENV) .pytest_cache build *.egg-info
