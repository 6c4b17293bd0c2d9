"""Golden 100-step trajectories of the ``trellax.optim`` transformations that the other optim
golden files leave out (run with JAX and optax installed): optax's wrappers,
``inject_hyperparams`` with every ``hyperparam_dtype``, ``adamax``/``amsgrad``/``lamb``, the
``scale_by_*`` blocks alone and the ``*_dtype`` options, the cases of
``tests/optim_more_cases.py``.

Writes ``tests/golden/optim_more.json`` in ``tests/golden/optim_rest.json``'s layout (the same
replay: float32, bfloat16 and float16 parameters, the plain and the spiky gradient sequences,
eager optax op by op). ``tests/test_optim_more.py`` replays them.

    python tools/gen_golden_optim_more.py      # needs jax==0.10.2, optax==0.2.8
"""

from __future__ import annotations

import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from gen_golden_optim_rest import write  # the replay, the caches and the layout
from optim_more_cases import CASES  # shared with the test (tests/ is on the path)

OUT = pathlib.Path(__file__).resolve().parent.parent / "tests" / "golden" / "optim_more.json"

if __name__ == "__main__":
    write(CASES, OUT)
