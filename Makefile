# Every target creates .venv when missing and installs trellax with its dev extras from pyproject.toml.
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: demo test lint typecheck bench golden clean format

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[dev]'
	touch $(STAMP)

demo: $(STAMP)
	$(PY) -m trellax demo
	$(PY) -m pip install -q -e '.[demo]'
	$(PY) examples/train_digits.py

lint: $(STAMP)
	$(PY) -m ruff check trellax tests benchmarks tools
	$(PY) -m ruff format --check trellax tests benchmarks tools
	$(PY) -m mypy --strict trellax

# User-style snippets in tests/typing, checked by mypy and pyright: every assert_type must hold and
# every `# type: ignore[...]` must be needed (an expected error that stops being one fails too).
# Pyright's wheel ships pyright itself but runs it with Node.js; without a working Node the pyright
# half is skipped with a message rather than failing (mypy still runs).
PYRIGHT := $(VENV)/bin/pyright
export PYRIGHT_PYTHON_IGNORE_WARNINGS := 1

typecheck: $(STAMP)
	$(PY) -m mypy --strict --warn-unused-ignores --follow-imports=silent tests/typing
	@if timeout 60 $(PYRIGHT) --version >/dev/null 2>&1; then \
		echo "$(PYRIGHT) -p tests/typing/pyrightconfig.json --pythonpath $(PY)"; \
		$(PYRIGHT) -p tests/typing/pyrightconfig.json --pythonpath $(PY); \
	else \
		echo "typecheck: SKIPPING pyright: '$(PYRIGHT) --version' failed or took over 60 s" \
			"(pyright needs Node.js on PATH); mypy checked tests/typing."; \
	fi

test: lint typecheck
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
	/tmp/trellax-golden-venv/bin/python tools/gen_golden_control.py
	/tmp/trellax-golden-venv/bin/python tools/gen_golden_random.py > tests/golden/random.json
	/tmp/trellax-golden-venv/bin/pip install -q flax
	/tmp/trellax-golden-venv/bin/python tools/gen_golden_nn.py
	/tmp/trellax-golden-venv/bin/python tools/gen_golden_ad.py
	/tmp/trellax-golden-venv/bin/python tools/gen_golden_values.py
	/tmp/trellax-golden-venv/bin/python tools/gen_golden_values.py --x64

clean:
	rm -rf $(VENV) build *.egg-info .mypy_cache .pytest_cache .ruff_cache
