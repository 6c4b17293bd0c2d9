"""Golden results from real JAX for the ``jnp.ufunc`` objects (tests/test_golden_ufuncs.py).

``jnp.add``, ``jnp.multiply``, ``jnp.logaddexp``, ... are ``jnp.ufunc`` objects with the methods
``reduce``, ``accumulate``, ``outer``, ``at`` and ``reduceat``. Run from the repository root with
a Python that has jax 0.10.2::

    python tools/gen_golden_ufuncs.py     # writes tests/golden/ufuncs.json

Cases and their encoding are those of ``tools/gen_golden_names.py`` (same SPEC strings, same
recording of dtype, weak flag, shape, values or exception class). The script must not import
trellax. Its output is deterministic.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from gen_golden_names import write

OUT_PATH = Path(__file__).resolve().parent.parent / "tests" / "golden" / "ufuncs.json"

CASES: list[tuple[str, list[str]]] = []
_UFUNCS2 = ["add", "bitwise_and", "bitwise_or", "bitwise_xor", "logaddexp", "logaddexp2",
            "logical_and", "logical_or", "logical_xor", "maximum", "minimum", "multiply",
            "subtract"]  # fmt: skip
_UF_ARGS = [
    "arr:int8:[[1, 2, 3], [4, 5, 6]]",
    "arr:bool:[[True, False, True], [True, True, False]]",
    "arr:uint8:[[1, 2, 3], [4, 5, 250]]",
    "arr:float32:[[0.0, -0.0, inf], [-0.0, nan, -inf]]",
]
for u in _UFUNCS2:
    CASES.append((f"(jnp.{u}.nin, jnp.{u}.nout, jnp.{u}.nargs, jnp.{u}.identity)", []))
    for a in _UF_ARGS:
        for method in [
            "reduce(a0)",
            "reduce(a0, axis=1)",
            "reduce(a0, axis=None, keepdims=True)",
            "accumulate(a0)",
            "accumulate(a0, axis=1)",
            "outer(a0[0], a0[-1])",
            "at(a0, (jnp.array([0, 0, 1]), jnp.array([1, 1, 2])), a0[0, 0], inplace=False)",
            "reduceat(a0, jnp.array([0, 2, 1]), axis=1)",
        ]:
            CASES.append((f"jnp.{u}.{method}", [a]))
    CASES.append((f"jnp.{u}.reduce(a0, axis=0)", ["arr:float32:[[], []]"]))
    CASES.append((f"jnp.{u}.reduce(a0, axis=1)", ["arr:int32:[[], []]"]))
    CASES.append((f"jnp.{u}.reduce(a0, axis=(0, 1))", ["arr:int32:[[1, 2], [3, 4]]"]))
    CASES.append((f"jnp.{u}.reduce(a0, dtype=jnp.float32)", ["arr:int8:[[1, 2], [3, 4]]"]))
    CASES.append((f"jnp.{u}.accumulate(a0, dtype=jnp.int32)", ["arr:int8:[[1, 2], [3, 4]]"]))
    CASES.append((f"jnp.{u}.reduce(a0, initial=a1)", ["arr:int32:[[1, 2], [3, 4]]", "py:3"]))
    CASES.append(
        (f"jnp.{u}.reduce(a0, where=a1, initial=3)",
         ["arr:float32:[[1.0, 2.0], [3.0, 4.0]]", "arr:bool:[[True, False], [False, False]]"])
    )  # fmt: skip
    CASES.append((f"jnp.{u}.reduce(a0, where=a1)",
                  ["arr:int32:[[1, 2], [3, 4]]", "arr:bool:[True, False]"]))  # fmt: skip
    CASES.append((f"jnp.{u}.outer(a0, a1)", ["py:2", "arr:float32:[1.0, 0.5]"]))
    CASES.append((f"jnp.{u}.at(a0, 1, a1, inplace=False)", ["arr:int32:[1, 2, 3]", "py:2.5"]))
    CASES.append((f"jnp.{u}.at(a0, 1, 1, inplace=True)", ["arr:int32:[1, 2, 3]"]))
CASES += [
    ("(jnp.negative.nin, jnp.negative.nout, jnp.negative.nargs, jnp.negative.identity)", []),
    ("jnp.negative.at(a0, jnp.array([0, 2, 2]), inplace=False)", ["arr:int32:[1, 2, 3]"]),
    ("jnp.negative.reduce(a0)", ["arr:int32:[1, 2, 3]"]),
    ("jnp.negative.outer(a0, a0)", ["arr:int32:[1, 2, 3]"]),
    ("jnp.add.reduce(a0, axis=0, dtype=jnp.int8)", ["arr:int32:[300, 100]"]),
    ("jnp.add.reduce(a0)", ["full3:1.5"]),
    ("jnp.maximum.reduce(a0)", ["full3:1.5"]),
    ("jnp.add.accumulate(a0)", ["full3:2"]),
    ("jnp.multiply.outer(a0, a0)", ["full3:2"]),
    ("jnp.logaddexp.reduce(a0)", ["arr:float32:[-inf, -inf]"]),
    ("jnp.logaddexp.reduce(a0)", ["arr:float32:[inf, 1.0, -inf]"]),
    ("jnp.logaddexp.reduce(a0)", ["arr:float32:[1000.0, 1000.0, -5.0]"]),
    ("jnp.logaddexp2.reduce(a0)", ["arr:float32:[nan, 1.0]"]),
    ("jnp.add.reduce(a0, axis=2)", ["arr:float32:[[1.0, 2.0]]"]),
    ("jnp.add.at(a0, 5, 1.0, inplace=False)", ["arr:float32:[1.0, 2.0]"]),
    ("jnp.add.at(a0, jnp.array([0, 0, 1]), a1, inplace=False)",
     ["arr:float32:[1.0, 2.0]", "arr:float32:[1.0, 2.0]"]),
]  # fmt: skip


def main() -> None:
    write(OUT_PATH, CASES)


if __name__ == "__main__":
    main()
