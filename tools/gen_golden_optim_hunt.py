"""Golden 100-step trajectories of the optax optimizers and transforms the Flax/optax probe
added (``tests/optim_hunt_cases.py``), eager optax op by op, as ``tools/gen_golden_optim_rest.py``
writes its own: ``tests/golden/optim_hunt.json``, replayed by ``tests/test_optim_hunt.py``.

    python tools/gen_golden_optim_hunt.py      # needs jax==0.10.2, optax==0.2.8
"""

from __future__ import annotations

import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
sys.path.insert(0, str(ROOT / "tests"))
from gen_golden_optim_rest import write  # noqa: E402
from optim_hunt_cases import CASES  # noqa: E402

if __name__ == "__main__":
    write(CASES, ROOT / "tests" / "golden" / "optim_hunt.json")
