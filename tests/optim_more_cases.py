"""The transformations of ``trellax.optim`` that ``tests/optim_cases.py`` and
``tests/optim_rest_cases.py`` leave out: optax's wrappers (``masked``, ``multi_transform``/
``partition``, ``apply_if_finite``, ``clip``, ``zero_nans``, ``keep_params_nonnegative``,
``set_to_zero``, ``ema``, ``clip_by_block_rms``, ``centralize``, a scheduled weight decay),
``inject_hyperparams`` with every ``hyperparam_dtype``, ``adamax``/``amsgrad``/``lamb`` and their
building blocks, the ``scale_by_*`` blocks of the rest aliases alone, and the ``*_dtype`` options
(``MultiSteps(accumulator_dtype=)``, ``ema(accumulator_dtype=)``, ``amsgrad(mu_dtype=)``,
``scale_by_novograd(mu_dtype=)``).

Shared by ``tools/gen_golden_optim_more.py`` (run with optax) and ``tests/test_optim_more.py``;
each case runs through ``optim_rest_cases.replay`` (the same parameters, the plain and the spiky
gradient sequences, the same record), so the golden layout is ``tests/golden/optim_rest.json``'s.
"""

from __future__ import annotations

CASES = (
    # wrappers
    "o.masked(o.adam(1e-2), {'b': False, 'w': True})",
    "o.masked(o.sgd(0.1, momentum=0.9), lambda p: {'b': True, 'w': False})",
    "o.multi_transform({'a': o.adam(1e-2), 'z': o.set_to_zero()}, {'b': 'z', 'w': 'a'})",
    "o.partition({'s': o.sgd(0.1, momentum=0.9), 'l': o.lion(1e-3)}, "
    "lambda p: {'b': 'l', 'w': 's'})",
    "o.apply_if_finite(o.adam(1e-2), 3)",
    "o.apply_if_finite(o.sgd(0.1, momentum=0.9), 0)",
    "o.chain(o.clip(0.1), o.sgd(0.1))",
    "o.chain(o.zero_nans(), o.adam(1e-2))",
    "o.chain(o.sgd(0.1), o.keep_params_nonnegative())",
    "o.set_to_zero()",
    "o.chain(o.ema(0.9), o.scale(-0.1))",
    "o.chain(o.ema(0.9, debias=False, accumulator_dtype=jnp.bfloat16), o.scale(-0.1))",
    "o.chain(o.ema(0.5, accumulator_dtype=jnp.float32), o.scale(-0.1))",
    "o.chain(o.ema(0.9, accumulator_dtype=jnp.float16), o.scale(-0.1))",
    "o.chain(o.clip_by_block_rms(0.1), o.sgd(0.1))",
    "o.chain(o.centralize(), o.sgd(0.1))",
    "o.chain(o.add_decayed_weights(o.linear_schedule(0.1, 0.0, 50)), o.scale(-0.1))",
    # inject_hyperparams, every hyperparam_dtype
    "o.inject_hyperparams(o.adam)(learning_rate=1e-2)",
    "o.inject_hyperparams(o.adam, hyperparam_dtype=jnp.float16)(learning_rate=1e-2)",
    "o.inject_hyperparams(o.adam, hyperparam_dtype=jnp.bfloat16)(learning_rate=1e-2)",
    "o.inject_hyperparams(o.adam, hyperparam_dtype=jnp.float32)(learning_rate=1e-2)",
    "o.inject_hyperparams(o.sgd)(learning_rate=o.linear_schedule(0.1, 0.0, 50), momentum=0.9)",
    "o.inject_hyperparams(o.sgd, static_args='nesterov')(0.1, momentum=0.9, nesterov=True)",
    "o.inject_hyperparams(o.rmsprop, hyperparam_dtype=jnp.float16)(learning_rate=1e-2)",
    # adamax, amsgrad, lamb and their blocks
    "o.adamax(1e-2)",
    "o.chain(o.scale_by_adamax(b1=0.5, eps=1e-3), o.scale(-1e-2))",
    "o.amsgrad(1e-2)",
    "o.amsgrad(1e-2, mu_dtype=jnp.bfloat16)",
    "o.chain(o.scale_by_amsgrad(eps_root=1e-8, mu_dtype=jnp.float16), o.scale(-1e-2))",
    "o.amsgrad(1e-2, bias_correction_mu=False, bias_correction_nu=False)",
    "o.lamb(1e-2)",
    "o.lamb(1e-2, weight_decay=0.1, mask={'b': False, 'w': True})",
    "o.chain(o.scale_by_trust_ratio(), o.scale(-1e-2))",
    "o.chain(o.scale_by_trust_ratio(min_norm=1.0, trust_coefficient=0.5, eps=1e-3), "
    "o.scale(-1e-2))",
    # the blocks of tests/optim_rest_cases.py's aliases, alone
    "o.chain(o.scale_by_belief(), o.scale(-1e-2))",
    "o.chain(o.scale_by_radam(), o.scale(-1e-2))",
    "o.chain(o.scale_by_novograd(mu_dtype=jnp.bfloat16), o.scale(-1e-2))",
    "o.chain(o.scale_by_sm3(), o.scale(-1e-2))",
    "o.chain(o.scale_by_factored_rms(min_dim_size_to_factor=2), o.scale(-1e-2))",
    "o.chain(o.scale_by_factored_rms(factored=False), o.scale(-1e-2))",
    "o.chain(o.scale_by_param_block_rms(), o.scale(-1e-2))",
    # MultiSteps: every accumulator_dtype, skip_large_updates
    "o.MultiSteps(o.adam(1e-2), 2, accumulator_dtype=jnp.bfloat16)",
    "o.MultiSteps(o.sgd(0.1), 4, accumulator_dtype=jnp.float16)",
    "o.MultiSteps(o.adam(1e-2), 2, "
    "should_skip_update_fn=lambda u, g, p: o.skip_large_updates(u, g, p, 40.0))",
)
