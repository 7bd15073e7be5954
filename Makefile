# Run Inspector: the README names `make run` (the app) and `make test` (the whole suite).
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
# Two installs, two stamps: `make run` needs the runtime dependencies only; `make test`, `make lint`
# and `make bench` need the test extra (pytest, the MCP SDK server, ruff, ...) as well.
RUNTIME_STAMP := $(VENV)/.runtime-stamp
STAMP := $(VENV)/.installed-stamp

.PHONY: validators trace-fixtures dist check-pipx standalone run test bench bench-record lint clean conformance translations check-packaging install-desktop uninstall-desktop desktop-caches screenshots

# The compiled translations: the install (setup.py's build step) makes them; a .po edited since is
# compiled again here, so `make run` and `make test` never show stale text.
PO_FILES := $(wildcard translations/*/LC_MESSAGES/messages.po)
MO_FILES := $(patsubst translations/%/LC_MESSAGES/messages.po,inspector/locale/%/LC_MESSAGES/run-inspector.mo,$(PO_FILES))

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

# pip is quiet: without a word first, the first `make run` said nothing for minutes while it downloaded.
$(RUNTIME_STAMP): pyproject.toml | $(PY)
	@echo "Installing Run Inspector and its dependencies into $(VENV) (the first time takes a few minutes)"
	$(PY) -m pip install --quiet -e .
	touch $(RUNTIME_STAMP)

$(STAMP): pyproject.toml | $(PY)
	@echo "Installing Run Inspector and its test dependencies into $(VENV) (the first time takes a few minutes)"
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

# Record the OTLP fixtures of tests/fixtures/otel/ with real software (see make_traces.py): the
# mcp SDK's own spans with this venv; Traceloop's and Logfire's MCP instrumentations (they need mcp 1.x) in .venv-mcp1.
MCP1_VENV := .venv-mcp1
$(MCP1_VENV)/.stamp:
	$(PYTHON) -m venv $(MCP1_VENV)
	$(MCP1_VENV)/bin/pip install --quiet "mcp>=1.20,<2" "uvicorn>=0.30" "opentelemetry-sdk>=1.45" \
		"opentelemetry-exporter-otlp-proto-common>=1.45" "opentelemetry-instrumentation-mcp>=0.62,<0.63" \
		"logfire>=5.4"
	touch $@

# Google ADK pins opentelemetry-sdk<=1.44 (the other flavours record with 1.45): google_adk.jsonl is made in a
# third environment.
ADK_VENV := .venv-adk
$(ADK_VENV)/.stamp:
	$(PYTHON) -m venv $(ADK_VENV)
	$(ADK_VENV)/bin/pip install --quiet "google-adk[mcp]>=2.13,<3" "mcp>=2.3,<3" "uvicorn>=0.30" \
		"opentelemetry-exporter-otlp-proto-common>=1.44"
	touch $@

# OpenLIT (its MCP instrumentation reads mcp 1.x's modules; the OpenTelemetry instrumentations it needs pin API
# 1.45.1, not the 1.45.2 of this venv) records openlit.jsonl in a fourth environment. The exporter's encoder below
# 1.45.2, as OpenLIT's pins want it: without that bound the pip that `python3 -m venv` brings (23.2) gives up
# (ResolutionImpossible: opentelemetry-exporter-otlp against the encoder) rather than find 1.45.1.
OPENLIT_VENV := .venv-openlit
$(OPENLIT_VENV)/.stamp:
	$(PYTHON) -m venv $(OPENLIT_VENV)
	$(OPENLIT_VENV)/bin/pip install --quiet "mcp>=1.20,<2" "uvicorn>=0.30" "opentelemetry-sdk>=1.45" \
		"opentelemetry-exporter-otlp-proto-common>=1.45,<1.45.2" "openlit>=1.45,<2"
	touch $@

# OpenLIT on mcp 2.x (it instruments the client only there: its span over the SDK's) records openlit_mcp2.jsonl in
# one more. The exporter's encoder below 1.45.2, as OpenLIT's pins want it: without that bound pip 23 gives up
# (ResolutionImpossible) rather than find 1.45.1.
OPENLIT_MCP2_VENV := .venv-openlit-mcp2
$(OPENLIT_MCP2_VENV)/.stamp:
	$(PYTHON) -m venv $(OPENLIT_MCP2_VENV)
	$(OPENLIT_MCP2_VENV)/bin/pip install --quiet "mcp>=2.3,<3" "uvicorn>=0.30" "opentelemetry-sdk>=1.45" \
		"opentelemetry-exporter-otlp-proto-common>=1.45,<1.45.2" "openlit>=1.45,<2"
	touch $@

# Splunk's FastMCP instrumentation (FastMCP 3.x, so mcp 1.x) in a fifth: its pin splunk-otel-util-genai<=0.1.8 lacks
# the MCPOperation it imports, so 0.1.15 goes in over the pin (--no-deps).
SPLUNK_VENV := .venv-splunk
$(SPLUNK_VENV)/.stamp:
	$(PYTHON) -m venv $(SPLUNK_VENV)
	$(SPLUNK_VENV)/bin/pip install --quiet "fastmcp>=3,<4" "splunk-otel-instrumentation-fastmcp==0.2.2" "uvicorn>=0.30" \
		"opentelemetry-sdk~=1.38.0" "opentelemetry-exporter-otlp-proto-common~=1.38.0"
	$(SPLUNK_VENV)/bin/pip install --quiet --no-deps "splunk-otel-util-genai==0.1.15"
	touch $@

# Respan's MCP plugin (mcp 1.x; its exporter pins want the SDK it brings, 1.45.1) in a sixth.
RESPAN_VENV := .venv-respan
$(RESPAN_VENV)/.stamp:
	$(PYTHON) -m venv $(RESPAN_VENV)
	$(RESPAN_VENV)/bin/pip install --quiet "respan-instrumentation-mcp==0.1.1" "opentelemetry-exporter-otlp-proto-common==1.45.1" \
		"uvicorn>=0.30"
	touch $@

# AWS Strands Agents (it pins mcp<2.2, the others' agents speak 2.3) in a seventh: its agent only, the server is this
# venv's (make_traces.py).
STRANDS_VENV := .venv-strands
$(STRANDS_VENV)/.stamp:
	$(PYTHON) -m venv $(STRANDS_VENV)
	$(STRANDS_VENV)/bin/pip install --quiet "strands-agents[otel]==1.62.0" "opentelemetry-exporter-otlp-proto-common>=1.45"
	touch $@

# The same Strands agent traced by MLflow (mlflow.strands.autolog(), its own OTLP exporter) in an eighth, and an agent's
# plain tool functions traced by MLflow alone (@mlflow.trace(span_type="TOOL"): mlflow_tools.jsonl).
MLFLOW_VENV := .venv-mlflow
$(MLFLOW_VENV)/.stamp:
	$(PYTHON) -m venv $(MLFLOW_VENV)
	$(MLFLOW_VENV)/bin/pip install --quiet "mlflow-skinny==3.18.0" "strands-agents[otel]==1.62.0" \
		"opentelemetry-exporter-otlp-proto-common>=1.45"
	touch $@

trace-fixtures: $(STAMP) $(MCP1_VENV)/.stamp $(ADK_VENV)/.stamp $(OPENLIT_VENV)/.stamp $(OPENLIT_MCP2_VENV)/.stamp \
		$(SPLUNK_VENV)/.stamp $(RESPAN_VENV)/.stamp $(STRANDS_VENV)/.stamp $(MLFLOW_VENV)/.stamp
	$(PY) -m pip install --quiet -e '.[test,trace-fixtures]'
	$(PY) tests/fixtures/otel/make_traces.py --mcp1-python $(MCP1_VENV)/bin/python --adk-python $(ADK_VENV)/bin/python \
		--openlit-python $(OPENLIT_VENV)/bin/python --openlit-mcp2-python $(OPENLIT_MCP2_VENV)/bin/python \
		--splunk-python $(SPLUNK_VENV)/bin/python \
		--respan-python $(RESPAN_VENV)/bin/python --strands-python $(STRANDS_VENV)/bin/python \
		--mlflow-python $(MLFLOW_VENV)/bin/python

# The sdist and the wheel (built from the sdist) in dist/; tests/integration/test_wheel_install.py installs
# such a wheel into a fresh environment outside the checkout.
dist: $(STAMP)
	rm -f dist/run_inspector-*.whl dist/run_inspector-*.tar.gz  # dist/standalone/ stays
	$(PY) -m build --outdir dist .

# `pipx install` of the wheel into a throwaway PIPX_HOME under the temporary folder, then the smoke test
# on the installed command (packaging/check_pipx.py). Downloads pipx and the dependencies: not in `make test`.
check-pipx: dist
	$(PY) packaging/check_pipx.py $(wildcard dist/run_inspector-*.whl)

# The standalone one-folder application (PyInstaller, packaging/run-inspector.spec) in
# dist/standalone/run-inspector/, then its smoke test (packaging/smoke_standalone.py).
standalone: $(STAMP) $(MO_FILES)
	$(PY) -m pip install --quiet -e '.[test,standalone]'
	$(PY) -m PyInstaller --noconfirm --distpath dist/standalone --workpath build/standalone packaging/run-inspector.spec
	$(PY) packaging/smoke_standalone.py dist/standalone/run-inspector/run-inspector

# On every core (pytest-xdist); `-n 0` (or plain pytest) runs it in one process. A worker that
# ran out of tests takes some of another's (worksteal): the GUI and integration tests last 1 to
# 13 s each, and handing them out in fixed shares left one core idle at the end (8 min 24 s
# against 10 min 15 s for the same tests on this 2-core machine).
# The packaging files' validators (Debian packages): installed here when missing and this is root with
# apt-get (a fresh CI machine); otherwise tests/unit/test_packaging.py fails and names the package.
VALIDATORS := desktop-file-validate:desktop-file-utils appstreamcli:appstream
validators:
	@for pair in $(VALIDATORS); do program=$${pair%%:*}; package=$${pair#*:}; \
	  if ! command -v $$program >/dev/null 2>&1 && [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "installing $$package (for $$program)"; \
	    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$package >/dev/null 2>&1 || \
	    { apt-get update -qq >/dev/null 2>&1 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$package >/dev/null 2>&1; } || \
	    echo "could not install $$package"; \
	  fi; done

test: lint validators $(MO_FILES)
	QT_QPA_PLATFORM=offscreen $(PY) -m pytest -q -n auto --dist worksteal

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

# The desktop entry and AppStream metainfo under packaging/, checked by their validators (Debian
# packages desktop-file-utils and appstream; tests/unit/test_packaging.py runs them too).
APP_ID := io.github.runinspector.RunInspector
ICON_SIZES := 16 22 24 32 48 64 128 256 512
ICONS := inspector/resources/icons

check-packaging:
	desktop-file-validate packaging/$(APP_ID).desktop
	appstreamcli validate --no-net packaging/$(APP_ID).metainfo.xml

# The AppStream metainfo's screenshots are the screenshot tests' pictures, published in docs/screenshots/.
PUBLISHED_SHOTS := finished-call running-mid-leg

screenshots: $(STAMP) $(MO_FILES)
	QT_QPA_PLATFORM=offscreen $(PY) -m pytest -q tests/gui/test_screenshots.py
	for name in $(PUBLISHED_SHOTS); do cp tests/gui/screenshots/$$name.png docs/screenshots/; done

# The menu entry and icons for this user (XDG folders; `make uninstall-desktop` removes exactly these).
# Exec names the run-inspector on PATH (pipx), else this checkout's venv; DESKTOP_EXEC=... overrides.
DESKTOP_DATA := $(or $(XDG_DATA_HOME),$(HOME)/.local/share)
DESKTOP_EXEC ?= $(or $(shell command -v run-inspector),$(abspath $(VENV)/bin/run-inspector))
DESKTOP_FILES := applications/$(APP_ID).desktop icons/hicolor/scalable/apps/$(APP_ID).svg \
	$(foreach size,$(ICON_SIZES),icons/hicolor/$(size)x$(size)/apps/$(APP_ID).png)

install-desktop:
	install -d "$(DESKTOP_DATA)/applications" "$(DESKTOP_DATA)/icons/hicolor/scalable/apps"
	sed -e 's|^Exec=run-inspector |Exec="$(DESKTOP_EXEC)" |' -e 's|^TryExec=run-inspector$$|TryExec=$(DESKTOP_EXEC)|' \
		packaging/$(APP_ID).desktop > "$(DESKTOP_DATA)/applications/$(APP_ID).desktop"
	install -m 644 $(ICONS)/$(APP_ID).svg "$(DESKTOP_DATA)/icons/hicolor/scalable/apps/$(APP_ID).svg"
	for size in $(ICON_SIZES); do \
		install -D -m 644 $(ICONS)/$$size/$(APP_ID).png "$(DESKTOP_DATA)/icons/hicolor/$${size}x$${size}/apps/$(APP_ID).png"; \
	done
	$(MAKE) --no-print-directory desktop-caches

uninstall-desktop:
	cd "$(DESKTOP_DATA)" && rm -f $(DESKTOP_FILES)
	$(MAKE) --no-print-directory desktop-caches

# Refresh what the desktop reads: the menu's database, and the icon cache only where one exists
# (creating one would hide icons installed later by tools that never update it); else the folder's
# new time tells the desktop to look again.
desktop-caches:
	if command -v update-desktop-database >/dev/null; then update-desktop-database -q "$(DESKTOP_DATA)/applications"; fi
	if [ -f "$(DESKTOP_DATA)/icons/hicolor/icon-theme.cache" ] && command -v gtk-update-icon-cache >/dev/null; then \
		gtk-update-icon-cache -q -t -f "$(DESKTOP_DATA)/icons/hicolor"; \
	else touch "$(DESKTOP_DATA)/icons/hicolor"; fi

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .ruff_cache benchmarks/latest inspector/locale
