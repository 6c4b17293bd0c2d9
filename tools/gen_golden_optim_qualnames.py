"""The qualified names of the ``init``/``update`` functions of optax's transformations (run
with optax 0.2.8 installed): a printed optimizer shows them (``GradientTransformationExtraArgs(
init=<function chain.<locals>.init_fn at ...>, ...)``, in a printed Flax ``TrainState`` too), so
``trellax.optim``'s functions carry the same names.

Writes ``tests/golden/optim_qualnames.json`` (``{expression: [init, update]}``, each expression
evaluated with ``o`` the optimizer module); ``tests/test_optim_qualnames.py`` replays it.

    python tools/gen_golden_optim_qualnames.py      # needs optax==0.2.8
"""

from __future__ import annotations

import json
import pathlib

import optax

OUT = pathlib.Path(__file__).resolve().parent.parent / "tests" / "golden" / "optim_qualnames.json"

EXPRESSIONS = [
    "o.adam(0.1)",
    "o.sgd(0.1, momentum=0.9)",
    "o.adamw(0.1)",
    "o.rmsprop(0.1)",
    "o.lion(0.1)",
    "o.adafactor(0.1)",
    "o.adagrad(0.1)",
    "o.lamb(0.1)",
    "o.clip_by_global_norm(1.0)",
    "o.clip(1.0)",
    "o.scale(2.0)",
    "o.identity()",
    "o.scale_by_adam()",
    "o.scale_by_rms()",
    "o.add_decayed_weights(0.1)",
    "o.masked(o.sgd(0.1), {'a': True})",
    "o.multi_transform({'a': o.sgd(0.1)}, {'a': 'a'})",
    "o.inject_hyperparams(o.adam)(learning_rate=0.1)",
    "o.chain(o.scale(1.0))",
    "o.apply_if_finite(o.sgd(0.1), 3)",
    "o.lookahead(o.sgd(0.1), 2, 0.5)",
    "o.ema(0.9)",
    "o.trace(0.9)",
    "o.zero_nans()",
    "o.MultiSteps(o.sgd(0.1), 2).gradient_transformation()",
]


def main() -> None:
    out = {}
    for expr in EXPRESSIONS:
        t = eval(expr, {"o": optax})
        out[expr] = [t.init.__qualname__, t.update.__qualname__]
    OUT.write_text(json.dumps({"optax": optax.__version__, "cases": out}, indent=1) + "\n")


if __name__ == "__main__":
    main()
