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
	$(PY) -m pytest -q -p no:cacheprovider tests/test_layers.py tests/test_doc_claims.py

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

# Regenerates every generated golden file in tests/golden/: the JAX data (one script per file in
# tools/, run in a throwaway venv with the pinned JAX; needs network the first time; ~30 min on two
# cores, mostly gen_golden_ops.py), then trellax's own CLI texts in tests/golden/cli/. The two
# transcribed reference files there (jax_reference_tables.md, jax_docs_lattice_table.txt) are
# copied from JAX's docs and specification, not generated. tests/test_golden_files.py checks that
# every tools/gen_golden*.py script is listed here.
GOLDEN_VENV ?= /tmp/trellax-golden-venv
JAX_VERSION ?= 0.10.2
GOLDEN_PY   := $(GOLDEN_VENV)/bin/python

golden: $(STAMP)
	test -x $(GOLDEN_PY) || $(PYTHON) -m venv $(GOLDEN_VENV)
	$(GOLDEN_PY) -m pip install -q jax==$(JAX_VERSION) jaxlib==$(JAX_VERSION) numpy ml_dtypes mpmath
	$(GOLDEN_PY) tools/gen_golden.py
	$(GOLDEN_PY) tools/gen_golden_complex_inf.py
	$(GOLDEN_PY) tools/gen_golden_complex_special.py
	$(GOLDEN_PY) tools/gen_golden_control.py
	$(GOLDEN_PY) tools/gen_golden_core.py
	$(GOLDEN_PY) tools/gen_golden_ops.py
	$(GOLDEN_PY) tools/gen_golden_values.py
	$(GOLDEN_PY) tools/gen_golden_values.py --x64
	$(GOLDEN_PY) tools/gen_golden_ad.py
	$(GOLDEN_PY) tools/gen_golden_ad_rules.py
	$(GOLDEN_PY) tools/gen_golden_vmap.py
	$(GOLDEN_PY) tools/gen_golden_random.py > tests/golden/random.json
	$(GOLDEN_PY) tools/gen_golden_random_extra.py > tests/golden/random_extra.json
	$(GOLDEN_PY) tools/gen_golden_random_large.py
	$(GOLDEN_PY) tools/gen_golden_erf_xla.py
	$(GOLDEN_PY) tools/gen_golden_xla_log.py
	$(GOLDEN_PY) tools/gen_golden_ends16.py
	$(GOLDEN_PY) tools/gen_golden_xla_elementary.py
	$(GOLDEN_PY) tools/gen_golden_xla_f64.py
	$(GOLDEN_PY) tools/gen_golden_random_sweep.py
	$(GOLDEN_PY) tools/gen_golden_random_tails.py
	$(GOLDEN_PY) tools/gen_golden_index_sweep.py
	$(GOLDEN_PY) tools/gen_golden_cumlogsumexp.py
	$(GOLDEN_PY) tools/gen_golden_scan_order.py
	$(GOLDEN_PY) tools/gen_golden_sum17.py
	$(GOLDEN_PY) tools/gen_jax_names.py
	$(GOLDEN_PY) tools/gen_golden_names.py
	$(GOLDEN_PY) tools/gen_golden_lax_more.py
	$(GOLDEN_PY) tools/gen_golden_stats_more.py
	$(GOLDEN_PY) tools/gen_golden_ufuncs.py
	$(GOLDEN_PY) tools/gen_golden_behaviour.py
	$(GOLDEN_PY) tools/gen_golden_fusion.py
	$(GOLDEN_PY) tools/gen_golden_toplevel.py
	$(GOLDEN_PY) tools/gen_golden_checkpoint.py
	$(GOLDEN_PY) tools/gen_golden_scatter_unique.py
	$(GOLDEN_PY) tools/gen_golden_checkify.py
	$(GOLDEN_PY) tools/gen_golden_control_custom.py
	$(GOLDEN_PY) tools/gen_golden_scipy_modules.py
	$(GOLDEN_PY) -m pip install -q optax==0.2.8
	$(GOLDEN_PY) tools/gen_golden_optim.py
	$(GOLDEN_PY) tools/gen_golden_optim_rest.py
	$(GOLDEN_PY) tools/gen_golden_optim_x64.py
	$(GOLDEN_PY) tools/gen_golden_optim_numerics.py
	$(GOLDEN_PY) tools/gen_golden_optim_more.py
	$(GOLDEN_PY) tools/gen_golden_optim_reduce.py
	$(GOLDEN_PY) tools/gen_golden_optim_names.py
	$(GOLDEN_PY) tools/gen_golden_optim_qualnames.py
	$(GOLDEN_PY) tools/gen_golden_optim_linesearch.py
	$(GOLDEN_PY) tools/gen_golden_optim_fy.py
	$(GOLDEN_PY) tools/gen_golden_optim_missing.py
	$(GOLDEN_PY) tools/gen_golden_optim_contrib.py
	$(GOLDEN_PY) tools/gen_golden_losses.py
	$(GOLDEN_PY) tools/gen_golden_silent.py
	$(GOLDEN_PY) tools/gen_golden_jaxfile_numpy.py
	$(GOLDEN_PY) tools/gen_golden_div_reciprocal.py
	$(GOLDEN_PY) tools/gen_golden_div_rules.py
	$(GOLDEN_PY) tools/gen_golden_error_order.py
	$(GOLDEN_PY) tools/gen_golden_complex_extrema.py
	$(GOLDEN_PY) tools/gen_golden_complex_mul.py
	$(GOLDEN_PY) tools/gen_golden_nn_init_complex.py
	$(GOLDEN_PY) tools/gen_golden_div_compound.py
	$(GOLDEN_PY) -m pip install -q scipy
	$(GOLDEN_PY) tools/gen_golden_special_more.py
	$(GOLDEN_PY) tools/gen_deriv_exact_derivs_nn.py
	$(GOLDEN_PY) tools/gen_golden_special_exact.py
	$(GOLDEN_PY) -m pip install -q flax
	$(GOLDEN_PY) tools/gen_golden_nn.py
	$(GOLDEN_PY) tools/gen_golden_jax_attention.py
	$(GOLDEN_PY) tools/gen_golden_rng_bit_generator.py
	$(GOLDEN_PY) tools/gen_golden_nn_init_edges.py
	$(GOLDEN_PY) tools/gen_golden_nn_init_large.py
	$(GOLDEN_PY) tools/gen_golden_linen.py
	$(GOLDEN_PY) tools/gen_golden_jit_call.py
	$(GOLDEN_PY) tools/gen_golden_compat.py
	$(GOLDEN_PY) tools/gen_golden_jax_surface.py
	$(GOLDEN_PY) tools/gen_golden_explicit_x64.py
	$(GOLDEN_PY) tools/gen_golden_multidevice.py
	$(GOLDEN_PY) tools/gen_golden_sharding_types.py
	$(GOLDEN_PY) tools/gen_golden_transcendental.py
	$(GOLDEN_PY) tools/gen_golden_random_modes.py
	$(GOLDEN_PY) -m pip install -q flax==0.12.8 msgpack
	$(GOLDEN_PY) tools/gen_golden_flax.py
	$(GOLDEN_PY) tools/gen_golden_nn_fp8.py
	$(GOLDEN_PY) tools/gen_golden_extended_dtypes.py
	$(GOLDEN_PY) -m pip install -q absl-py
	$(GOLDEN_PY) tools/gen_golden_flax_examples.py
	$(GOLDEN_PY) tools/gen_golden_silent3.py
	$(GOLDEN_PY) tools/gen_golden_linalg_sort.py
	$(GOLDEN_PY) tools/gen_golden_edge_inputs.py
	$(GOLDEN_PY) tools/gen_golden_edge_sweep.py
	$(GOLDEN_PY) tools/gen_golden_edge_public.py
	$(GOLDEN_PY) tools/gen_golden_corpus.py
	$(GOLDEN_PY) tools/gen_golden_numpy_peer.py
	$(GOLDEN_PY) tools/gen_golden_derivs.py
	$(GOLDEN_PY) tools/gen_golden_custom_public.py
	$(GOLDEN_PY) tools/gen_golden_probe_batch3.py
	$(GOLDEN_PY) tools/gen_golden_probe_int.py
	$(GOLDEN_PY) tools/gen_golden_probe_int.py --x64
	$(GOLDEN_PY) tools/gen_golden_fuzz.py
	$(GOLDEN_PY) tools/gen_golden_fuzz.py --x64 --skip 7087
	$(GOLDEN_PY) tools/gen_golden_fuzz.py --compose --limit 60
	$(GOLDEN_PY) tools/gen_golden_scatter_extremal.py
	$(GOLDEN_PY) tools/gen_golden_reduce_init.py
	$(GOLDEN_PY) tools/gen_golden_grad_weak.py
	$(GOLDEN_PY) tools/gen_golden_map_coordinates_edges.py
	$(GOLDEN_PY) tools/gen_golden_lax_scalars.py
	$(GOLDEN_PY) tools/gen_golden_mean_half.py
	$(GOLDEN_PY) tools/gen_golden_xla16.py
	$(GOLDEN_PY) tools/gen_golden_lin17.py
	$(GOLDEN_PY) tools/gen_golden_jnp_scalars.py
	$(GOLDEN_PY) tools/gen_golden_fuzz.py --compose --x64 --limit 60
	$(GOLDEN_PY) tools/gen_golden_fuzz_fixes.py
	$(GOLDEN_PY) tools/gen_golden_kw_values.py
	$(GOLDEN_PY) tools/gen_golden_fuzz.py --lax --limit 60
	$(GOLDEN_PY) tools/gen_golden_fuzz.py --lax --x64 --limit 60
	$(GOLDEN_PY) tools/gen_golden_fuzz.py --keywords --n 6000 --limit 20 --skip 3551,392,1038,3120,3209
	$(GOLDEN_PY) tools/gen_golden_fuzz.py --keywords --x64 --n 6000 --limit 20
	$(GOLDEN_PY) tools/gen_golden_jax_params.py
	$(GOLDEN_PY) tools/gen_golden_jt_values.py
	$(GOLDEN_PY) tools/gen_golden_flax_optax_hunt.py
	$(GOLDEN_PY) tools/gen_golden_fuzz_layers.py
	$(GOLDEN_PY) tools/gen_golden_optim_hunt.py
	$(GOLDEN_PY) tools/gen_deriv_exact_gamma.py
	$(GOLDEN_PY) tools/gen_deriv_exact_derivs_hyp.py
	$(GOLDEN_PY) tools/gen_deriv_exact_derivs_rest.py
	$(GOLDEN_PY) tools/gen_exact_hyp2f1.py
	$(GOLDEN_PY) tools/gen_exact_complex_log1p.py
	TRELLAX_REGEN_GOLDEN=1 $(PY) -m pytest -q tests/test_cli.py

clean:
	rm -rf $(VENV) build *.egg-info .mypy_cache .pytest_cache .ruff_cache
