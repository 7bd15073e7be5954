# Run Inspector: the README names `make run` (the app) and `make test` (the whole suite).
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
# Two installs, two stamps: `make run` needs the runtime dependencies only; `make test`, `make lint`
# and `make bench` need the test extra (pytest, the MCP SDK server, ruff, ...) as well.
RUNTIME_STAMP := $(VENV)/.runtime-stamp
STAMP := $(VENV)/.installed-stamp

.PHONY: run test bench bench-record lint clean conformance translations

# The compiled translations: the install (setup.py's build step) makes them; a .po edited since is
# compiled again here, so `make run` and `make test` never show stale text.
PO_FILES := $(wildcard translations/*/LC_MESSAGES/messages.po)
MO_FILES := $(patsubst translations/%/LC_MESSAGES/messages.po,inspector/locale/%/LC_MESSAGES/run-inspector.mo,$(PO_FILES))

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

$(RUNTIME_STAMP): pyproject.toml | $(PY)
	$(PY) -m pip install --quiet -e .
	touch $(RUNTIME_STAMP)

$(STAMP): pyproject.toml | $(PY)
	$(PY) -m pip install --quiet -e '.[test]'
	touch $(STAMP)

inspector/locale/%/LC_MESSAGES/run-inspector.mo: translations/%/LC_MESSAGES/messages.po | $(PY)
	$(PY) tools/translations.py compile

# Extract the messages from the sources, update every language's catalogue (translations are
# kept; new messages arrive untranslated) and compile them.
translations: $(RUNTIME_STAMP)
	$(PY) tools/translations.py all

run: $(RUNTIME_STAMP) $(MO_FILES)
	$(VENV)/bin/run-inspector

lint: $(STAMP)
	$(PY) -m ruff check inspector tests benchmarks conformance

# On every core (pytest-xdist); `-n 0` (or plain pytest) runs it in one process.
test: lint $(MO_FILES)
	QT_QPA_PLATFORM=offscreen $(PY) -m pytest -q -n auto

# The official MCP conformance suite and the Node it needs, under an ignored folder; not part of `make test`.
# `make conformance` runs the newest suite; `make conformance CONFORMANCE_VERSION=0.1.16` an older one;
# `CONFORMANCE_ONLY=auth/` only the scenarios whose names start so.
CONFORMANCE_VERSION ?= 0.2.0-alpha.12
CONFORMANCE_DIR := .conformance/$(CONFORMANCE_VERSION)

$(CONFORMANCE_DIR)/.installed-stamp:
	mkdir -p $(CONFORMANCE_DIR)
	test -f $(CONFORMANCE_DIR)/package.json || echo '{"name": "run-inspector-conformance", "private": true}' > $(CONFORMANCE_DIR)/package.json
	cd $(CONFORMANCE_DIR) && npm install --no-audit --no-fund @modelcontextprotocol/conformance@$(CONFORMANCE_VERSION) node@22
	# npm 11 runs no install scripts until approved: node@22 fetches its binary in one.
	cd $(CONFORMANCE_DIR) && (npm install-scripts approve node || true) && npm rebuild node
	$(CONFORMANCE_DIR)/node_modules/.bin/node --version
	touch $@

conformance: $(STAMP) $(CONFORMANCE_DIR)/.installed-stamp
	CONFORMANCE_DIR=$(CONFORMANCE_DIR) $(PY) conformance/run.py $(CONFORMANCE_ONLY)

# Results go to the untracked benchmarks/latest/; `make bench-record` writes the tracked
# benchmarks/results/ (commit them when the numbers should be kept).
bench: $(STAMP)
	$(PY) benchmarks/run_all.py

bench-record: $(STAMP)
	$(PY) benchmarks/run_all.py --record

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .ruff_cache benchmarks/latest inspector/locale
