"""100-step trajectory cases of the optax names the Flax/optax probe added to ``trellax.optim``
(``tests/test_optim_hunt.py``; golden ``tests/golden/optim_hunt.json`` from
``tools/gen_golden_optim_hunt.py``). The runs are ``tests/optim_rest_cases.py``'s ``replay``:
the same parameters, plain and spiky gradients, float32/bfloat16/float16.
"""

from __future__ import annotations

CASES = (
    "o.nadam(1e-2)",
    "o.nadamw(1e-2, weight_decay=0.1)",
    "o.sign_sgd(1e-2)",
    "o.signum(1e-2)",
    "o.chain(o.scale_by_sign(), o.scale(-1e-2))",
    "o.adamaxw(1e-2)",
    "o.chain(o.apply_every(3), o.sgd(1e-2))",
    "o.adadelta(1.0)",
    "o.chain(o.scale_by_adadelta(rho=0.5), o.scale(-1e-2))",
    "o.lars(1e-2, weight_decay=1e-3)",
    "o.chain(o.scale_by_rprop(1e-2), o.scale(-1.0))",
    "o.conditionally_transform(o.sgd(1e-2, momentum=0.9), lambda s: s % 3 == 0)",
    "o.conditionally_mask(o.adam(1e-2), lambda s: s > 2)",
    "o.chain(o.normalize_by_update_norm(), o.sgd(1e-2))",
    "o.chain(o.adaptive_grad_clip(0.1), o.sgd(1e-2))",
    "o.sgd(o.cosine_onecycle_schedule(100, 1e-2))",
    "o.sgd(o.linear_onecycle_schedule(100, 1e-2))",
    "o.sgd(o.piecewise_interpolate_schedule('cosine', 1e-2, {10: 0.5, 60: 0.1}))",
    "o.optimistic_gradient_descent(1e-2)",
    "o.chain(o.scale_by_optimistic_gradient(alpha=0.5, beta=2.0), o.scale(-1e-2))",
)
