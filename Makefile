# Every target creates or reuses the local virtual environment .venv and installs
# what it needs by itself.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: dashboard publish hub test test-fast lint lab bench screenshots translations new-dashboard clean

TEMPLATE := share/jupyter/voila/templates/elo-explain

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	$(BIN)/python -m ipykernel install --sys-prefix --name python3 --display-name "Python 3 (elo-explain)" > /dev/null
	# the published pages' Voilà template and JupyterLab's project settings (no news pop-up):
	# an editable install leaves out data files, so the venv links to the repository's copies
	mkdir -p $(VENV)/share/jupyter/voila/templates $(VENV)/share/jupyter/lab
	ln -sfn $(CURDIR)/$(TEMPLATE) $(VENV)/$(TEMPLATE)
	ln -sfn $(CURDIR)/share/jupyter/lab/settings $(VENV)/share/jupyter/lab/settings
	touch $(STAMP)

# as root (these machines, CI, a container) JupyterLab refuses to start without --allow-root
ALLOW_ROOT := $(if $(filter 0,$(shell id -u)),--allow-root)

## Preview the read-only dashboards on http://localhost:8866 (PORT=... for another port): the
## published site (voila.json: the gate, the template, every page in every language) without
## its preheated pool, so it fits a laptop (docs/capacity.md: about 0.1 GiB idle, and a kernel
## of about 0.1 GiB per open page); `make publish` serves with the pool
dashboard: PORT ?= 8866
dashboard: $(STAMP)
	$(BIN)/python -m elo_explain.server notebooks --port=$(PORT) --Voila.port_retries=0 --no-browser \
		--VoilaConfiguration.preheat_kernel=False

## Publish on http://<host>:$(PORT)/ (default 8080): Voilà on loopback behind nginx (deploy/),
## with the preheated pool sized by the machine's memory (docs/capacity.md); Ctrl-C stops both;
## HTTPS with CERT=<fullchain.pem> KEY=<privkey.pem>; Voilà's own options in VOILA_ARGS, e.g.
## VOILA_ARGS=--ViewerKernels.max_kernels_per_address=40 (each process's own, with WORKERS);
## WORKERS=N: N Voilà processes, each with 1/N of the machine (docs/publishing.md); behind a
## load balancer TRUSTED_PROXY=<its address or CIDR> (docs/security_edge.md)
publish: PORT ?= 8080
publish: WORKERS ?= 1
publish: $(STAMP)
	$(BIN)/python deploy/publish.py --port=$(PORT) --workers=$(WORKERS) \
		$(if $(CERT),--cert=$(CERT) --key=$(KEY)) \
		$(if $(TRUSTED_PROXY),--trusted-proxy=$(TRUSTED_PROXY)) -- $(VOILA_ARGS)

# configurable-http-proxy, JupyterHub's proxy (deploy/hub/package.json, pinned by its lock;
# needs node and npm)
CHP := deploy/hub/node_modules/.bin/configurable-http-proxy
$(CHP): deploy/hub/package.json deploy/hub/package-lock.json
	npm ci --prefix deploy/hub --no-audit --no-fund --loglevel=error
	touch $(CHP)

## Publish on JupyterHub on http://127.0.0.1:$(PORT)/ (default 8000): each visitor a temporary
## user and a Voilà server of their own, culled after CULL seconds idle (default 600), at most
## MAX servers (default 40; past it a busy page); MEM=1G and CPUS=0.5 cap each server (cgroup
## v1, as root); state in .hub/ (deploy/hub/jupyterhub_config.py, docs/publishing.md)
hub: PORT ?= 8000
hub: $(STAMP) $(CHP)
	PATH="$(CURDIR)/$(BIN):$$PATH" EE_HUB_PORT=$(PORT) EE_HUB_STATE=.hub \
		$(if $(CULL),EE_HUB_CULL_TIMEOUT=$(CULL)) $(if $(MAX),EE_HUB_MAX_SERVERS=$(MAX)) \
		$(if $(MEM),EE_HUB_MEM=$(MEM)) $(if $(CPUS),EE_HUB_CPUS=$(CPUS)) \
		$(BIN)/python -m jupyterhub -f deploy/hub/jupyterhub_config.py

# axe-core, the accessibility checker the browser tests inject into the pages (package.json,
# pinned by package-lock.json; needs node and npm)
AXE := node_modules/axe-core/axe.min.js
$(AXE): package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	touch $(AXE)

## Run the whole test suite, browser tests included (needs /usr/bin/chromium, nginx and npm); CI runs this.
## First make lint, then the rules with the package's own dependencies alone (numpy, Babel:
## tests/without_site.py), then the rest on three workers on two cores (pytest-xdist; the
## server tests' waits filled), a file's tests on one worker; it ends with each file's time
## (docs/testing.md)
test: $(STAMP) $(AXE) $(CHP) lint
	$(BIN)/python -m pytest -p without_site -n 2 tests/rules
	$(BIN)/python -m pytest -n 3 --dist loadfile --ignore=tests/rules

# the tests keep their compiled code (__pycache__, which git ignores) even where the
# environment sets PYTHONDONTWRITEBYTECODE (these machines do): otherwise each worker compiles
# and rewrites every test module anew, 10.4 -> 5.3 CPU-s of collection a worker
test test-fast: export PYTHONDONTWRITEBYTECODE =

## Run what needs no kernel, no browser and no server: doctests, rules, models, but not the
## figures' text laid out in every language and layout (marker layout: make test runs it)
test-fast: $(STAMP) lint
	$(BIN)/python -m pytest -p without_site -n 2 tests/rules
	$(BIN)/python -m pytest -n 2 --dist loadfile -m "not layout" elo_explain tests/models

## Check the code as the pre-commit hooks do: ruff's lint and format, and the package's layers
## (import-linter's contracts in pyproject.toml: rules <- interactive <- dashboards <- server)
lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports

## Open the notebooks in JupyterLab (PORT=... for a port other than 8888)
lab: PORT ?= 8888
lab: $(STAMP)
	$(BIN)/jupyter lab notebooks/ --port=$(PORT) $(ALLOW_ROOT)

## Run the benchmarks: benchmarks/RESULTS.md (package), benchmarks/DASHBOARDS.md (browser) and
## benchmarks/REMOTE.md (an emulated remote link, direct Voilà against nginx)
bench: $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[test,bench]'
	$(BIN)/python -m benchmarks
	$(BIN)/python benchmarks/browser_dashboards.py
	$(BIN)/python benchmarks/remote_link.py

## Update the translations: extract the English strings, merge them into the catalogs
## (elo_explain/locale/), compile them, generate notebooks/<lang>/ (docs/languages.md)
translations: $(STAMP)
	$(BIN)/python -m elo_explain.translate update

## Re-take the README screenshots (PAGES="uk/03_backgammon_divisor.ipynb …": only those)
screenshots: $(STAMP)
	$(BIN)/python scripts/screenshots.py $(PAGES)

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .hypothesis node_modules

## Start a dashboard: make new-dashboard NAME=12_my_topic TITLE="My topic" LINE="The landing
## page's one line." writes every file that can be generated (a working skeleton, its
## registration, tests, spec, translations to fill in, landing pictures: docs/adding_a_dashboard.md)
new-dashboard: $(STAMP)
	$(BIN)/python scripts/new_dashboard.py "$(NAME)" "$(TITLE)" "$(LINE)"
