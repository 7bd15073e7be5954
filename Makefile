# Run Inspector: the README names `make run` (the app) and `make test` (the whole suite).
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
# Two installs, two stamps: `make run` needs the runtime dependencies only; `make test`, `make lint`
# and `make bench` need the test extra (pytest, the MCP SDK server, ruff, ...) as well.
RUNTIME_STAMP := $(VENV)/.runtime-stamp
STAMP := $(VENV)/.installed-stamp

.PHONY: run test bench bench-record lint clean

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

$(RUNTIME_STAMP): pyproject.toml | $(PY)
	$(PY) -m pip install --quiet -e .
	touch $(RUNTIME_STAMP)

$(STAMP): pyproject.toml | $(PY)
	$(PY) -m pip install --quiet -e '.[test]'
	touch $(STAMP)

run: $(RUNTIME_STAMP)
	$(VENV)/bin/run-inspector

lint: $(STAMP)
	$(PY) -m ruff check inspector tests benchmarks

test: lint
	QT_QPA_PLATFORM=offscreen $(PY) -m pytest -q

# Results go to the untracked benchmarks/latest/; `make bench-record` writes the tracked
# benchmarks/results/ (commit them when the numbers should be kept).
bench: $(STAMP)
	$(PY) benchmarks/run_all.py

bench-record: $(STAMP)
	$(PY) benchmarks/run_all.py --record

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .ruff_cache benchmarks/latest
