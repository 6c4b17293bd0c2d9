"""Every public ``numpy`` function called with one edge-case array (empty, 0-d, rank 3): what
``tests/golden/edge_inputs.json`` records from JAX (``tools/gen_golden_edge_inputs.py``) and
``tests/test_edge_inputs.py`` checks in trellax: the result's shape, dtype and weak flag, or the
class of the error raised (never a bare NumPy exception where JAX has a value or its own error)."""

from __future__ import annotations

import warnings
from typing import Any

INPUTS = {
    "empty": "jnp.zeros((0,))",
    "empty2": "jnp.zeros((0, 3))",
    "scalar": "jnp.array(1.5)",
    "iscalar": "jnp.array(2)",
    "rank3": "jnp.ones((2, 2, 2))",
}

#: not array functions (I/O, printing options, wrappers of Python callables)
SKIP = {
    "load", "save", "savez", "fromfile", "fromfunction", "frompyfunc", "vectorize", "piecewise",
    "printoptions", "set_printoptions", "get_printoptions", "from_dlpack", "frombuffer",
    "fromstring", "iterable", "einsum_path",
}  # fmt: skip


def names(jnp: Any) -> list[str]:
    """The public callables of ``jnp`` that are not classes."""
    return sorted(
        n
        for n in dir(jnp)
        if not n.startswith("_")
        and n not in SKIP
        and callable(getattr(jnp, n))
        and not isinstance(getattr(jnp, n), type)
    )


def describe(jnp: Any, name: str, tag: str) -> str:
    """``"shape dtype weak=..."`` of ``jnp.<name>(<input tag>)`` (a tuple: its first element), the
    type name of a non-array result, or ``"ERR <class>"``."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            v = getattr(jnp, name)(eval(INPUTS[tag], {"jnp": jnp}))
        if isinstance(v, tuple):
            v = v[0] if v else None
        if hasattr(v, "shape") and hasattr(v, "dtype"):
            return f"{tuple(v.shape)} {v.dtype} weak={getattr(v, 'weak_type', None)}"
        return type(v).__name__
    except Exception as e:  # the error class is the recorded value
        return f"ERR {type(e).__name__}"
