# Run Inspector: the README names `make run` (the app) and `make test` (the whole suite).
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp
# `make run` installs what the app needs and nothing more (no test extra).
RUN_STAMP := $(VENV)/.runtime-stamp

.PHONY: run test bench lint clean conformance

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	touch $(STAMP)

$(RUN_STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e .
	touch $(RUN_STAMP)

run: $(RUN_STAMP)
	$(VENV)/bin/run-inspector

test: $(STAMP)
	QT_QPA_PLATFORM=offscreen $(PY) -m pytest -q

# The official MCP conformance suite and the Node it needs, under an ignored folder; not part of `make test`.
CONFORMANCE_DIR := .conformance
CONFORMANCE_SUITE := @modelcontextprotocol/conformance@0.1.16

$(CONFORMANCE_DIR)/.installed-stamp:
	mkdir -p $(CONFORMANCE_DIR)
	test -f $(CONFORMANCE_DIR)/package.json || echo '{"name": "run-inspector-conformance", "private": true}' > $(CONFORMANCE_DIR)/package.json
	cd $(CONFORMANCE_DIR) && npm install --no-audit --no-fund $(CONFORMANCE_SUITE) node@22
	# npm 11 runs no install scripts until approved: node@22 fetches its binary in one.
	cd $(CONFORMANCE_DIR) && (npm install-scripts approve node || true) && npm rebuild node
	$(CONFORMANCE_DIR)/node_modules/.bin/node --version
	touch $@

conformance: $(STAMP) $(CONFORMANCE_DIR)/.installed-stamp
	$(PY) conformance/run.py

bench: $(STAMP)
	$(PY) benchmarks/run_all.py

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache
