# Every target creates or reuses the local virtual environment .venv and installs
# what it needs by itself.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: dashboard publish test test-fast lab bench screenshots translations clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	$(BIN)/python -m ipykernel install --sys-prefix --name python3 --display-name "Python 3 (elo-explain)" > /dev/null
	touch $(STAMP)

## Serve the read-only dashboards on http://localhost:8866
dashboard: $(STAMP)
	$(BIN)/voila notebooks --port=8866 --no-browser

## Publish on http://<host>:$(PORT)/: Voilà on loopback behind nginx (deploy/), Ctrl-C stops both;
## HTTPS with CERT=<fullchain.pem> KEY=<privkey.pem>
PORT ?= 8080
publish: $(STAMP)
	$(BIN)/python deploy/publish.py --port=$(PORT) $(if $(CERT),--cert=$(CERT) --key=$(KEY))

## Run the whole test suite, browser tests included (needs /usr/bin/chromium and nginx); CI runs this
test: $(STAMP)
	$(BIN)/python -m pytest

## Run what needs no kernel, no browser and no server: doctests, rules, models (about a minute)
test-fast: $(STAMP)
	$(BIN)/python -m pytest elo_explain tests/rules tests/models

## Open the notebooks in JupyterLab
lab: $(STAMP)
	$(BIN)/jupyter lab notebooks/

## Run the benchmarks: benchmarks/RESULTS.md (package), benchmarks/DASHBOARDS.md (browser) and
## benchmarks/REMOTE.md (an emulated remote link, direct Voilà against nginx)
bench: $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[test,bench]'
	$(BIN)/python -m benchmarks
	$(BIN)/python benchmarks/browser_dashboards.py
	$(BIN)/python benchmarks/remote_link.py

## Update the translations: extract the English strings, merge them into the catalogs
## (elo_explain/locale/), compile them, generate notebooks/<lang>/ (see README, Languages)
translations: $(STAMP)
	$(BIN)/python -m elo_explain.translate update

## Re-take the README screenshots
screenshots: $(STAMP)
	$(BIN)/python scripts/screenshots.py

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .hypothesis
