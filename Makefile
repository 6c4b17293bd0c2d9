# Every target creates .venv when missing and installs trellax with its dev extras from pyproject.toml.
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: demo test lint bench golden clean format

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[dev]'
	touch $(STAMP)

demo: $(STAMP)
	$(PY) -m trellax demo

lint: $(STAMP)
	$(PY) -m ruff check trellax tests benchmarks tools
	$(PY) -m ruff format --check trellax tests benchmarks tools
	$(PY) -m mypy --strict trellax

test: lint
	$(PY) -m pytest

bench: $(STAMP)
	$(PY) benchmarks/run.py

format: $(STAMP)
	$(PY) -m ruff format trellax tests benchmarks tools
	$(PY) -m ruff check --fix trellax tests benchmarks tools

# Regenerates the golden JAX data in tests/golden/ (needs network; uses a throwaway venv).
golden:
	$(PYTHON) -m venv /tmp/trellax-golden-venv
	/tmp/trellax-golden-venv/bin/pip install -q jax numpy ml_dtypes
	/tmp/trellax-golden-venv/bin/python tools/gen_golden.py

clean:
	rm -rf $(VENV) build *.egg-info .mypy_cache .pytest_cache .ruff_cache
