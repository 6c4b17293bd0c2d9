"""Exhaustive check of backend/xla_exp.py against XLA:CPU (run with the JAX reference venv).

    /tmp/jaxref/bin/python tools/check_xla_exp.py [--chunk-bits 22] [--limit N]

Walks all 2**32 float32 bit patterns in chunks, computes ``jit(jnp.exp)`` and trellax's
emulation, and counts the inputs whose result bits differ (NaN bits included), split into finite
inputs and the rest. Prints one JSON line.
"""

from __future__ import annotations

import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from check_xla_log import main  # the same walk over all bit patterns

if __name__ == "__main__":
    main("xla_exp", {"exp": ("exp", "exp_f32")})
