"""Golden values of optax's loss functions (run with jax==0.10.2 and optax==0.2.8 installed).

Writes ``tests/golden/optim_losses.json``: for every case of ``tests/loss_cases.py`` the loss's
value (float64 list, NaN/inf as strings), dtype, weak flag and shape, and, where the case asks,
the gradient of the summed loss in the first argument. ``tests/test_optim_losses.py`` replays the
cases on ``trellax.optim``.

    python tools/gen_golden_losses.py
"""

from __future__ import annotations

import json
import pathlib
import sys
import warnings
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
import optax

warnings.simplefilter("ignore")
OUT = pathlib.Path(__file__).resolve().parent.parent / "tests" / "golden" / "optim_losses.json"
sys.path.insert(0, str(OUT.parent.parent))
from loss_cases import cases  # noqa: E402  (the case list, shared with the test)


def encode(x: Any) -> Any:
    a = np.asarray(x, dtype=np.float64)
    return [v if np.isfinite(v) else str(v) for v in a.reshape(-1).tolist()]


def main() -> None:
    records: dict[str, Any] = {}
    for case_id, name, args, kwargs, with_grad in cases():
        fn = getattr(optax.losses, name)
        jargs = [jnp.asarray(a) if isinstance(a, np.ndarray) else a for a in args]
        try:
            out = fn(*jargs, **kwargs)
        except Exception as e:  # the error class is the golden value (empty arrays, say)
            records[case_id] = {"error": type(e).__name__}
            continue
        rec: dict[str, Any] = {
            "value": encode(out),
            "dtype": str(out.dtype),
            "weak": bool(getattr(out, "weak_type", False)),
            "shape": list(out.shape),
        }
        if with_grad:
            rest = jargs[1:]
            try:
                g = jax.grad(lambda a, f=fn, r=rest, k=kwargs: jnp.sum(f(a, *r, **k)))(jargs[0])
                rec["grad"] = encode(g)
            except Exception as e:
                rec["grad_error"] = type(e).__name__
        records[case_id] = rec
    meta = {"jax": jax.__version__, "optax": optax.__version__}
    OUT.write_text(json.dumps({"meta": meta, "cases": records}, indent=1) + "\n")
    print(f"wrote {len(records)} cases to {OUT}")


if __name__ == "__main__":
    main()
