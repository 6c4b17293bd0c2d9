"""Record the public names of JAX's modules that trellax mirrors, for the coverage test.

Run from the repository root with a Python that has ``jax`` installed (``make golden`` builds one;
any venv with jax 0.10.2 does)::

    python tools/gen_jax_names.py            # writes tests/golden/jax_names.json
    python tools/gen_jax_names.py --missing  # also prints, per module, what trellax lacks today

The output is ``{"meta": {...versions...}, "modules": {"jax.numpy": [names...], ...}}``, names
sorted. A public name is one listed by ``dir(module)`` that does not start with ``_``. In
``jax.lax`` and ``jax.lax.linalg`` the ``*_p`` primitive objects are left out (JAX's internals,
not its API).
``jax.random`` and ``jax.nn`` are not recorded here: their trellax counterparts are separate
issues with their own coverage tests. ``tests/test_jax_names.py`` reads the file (never JAX) and
compares it with trellax and the reasoned list of missing names in ``docs/jax_coverage.md``.

``--missing`` imports trellax too (run it with ``PYTHONPATH=.`` from a checkout) and prints the
names the coverage document must list, a starting point when the document is first written.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.metadata
import json
import platform
from pathlib import Path

OUT_PATH = Path(__file__).resolve().parent.parent / "tests" / "golden" / "jax_names.json"

_STATS_DISTRIBUTIONS = [
    "bernoulli",
    "beta",
    "betabinom",
    "binom",
    "cauchy",
    "chi2",
    "dirichlet",
    "expon",
    "gamma",
    "gennorm",
    "geom",
    "gumbel_l",
    "gumbel_r",
    "laplace",
    "logistic",
    "multinomial",
    "multivariate_normal",
    "nbinom",
    "norm",
    "pareto",
    "poisson",
    "t",
    "truncnorm",
    "uniform",
    "vonmises",
    "wrapcauchy",
]

MODULES = [
    "jax",
    "jax.errors",
    "jax.image",
    "jax.lax",
    "jax.lax.linalg",
    "jax.numpy",
    "jax.numpy.fft",
    "jax.numpy.linalg",
    "jax.ops",
    "jax.scipy.cluster.vq",
    "jax.scipy.fft",
    "jax.scipy.integrate",
    "jax.scipy.interpolate",
    "jax.scipy.linalg",
    "jax.scipy.ndimage",
    "jax.scipy.optimize",
    "jax.scipy.signal",
    "jax.scipy.special",
    "jax.scipy.stats",
    *[f"jax.scipy.stats.{d}" for d in _STATS_DISTRIBUTIONS],
]


def public_names(module_name: str) -> list[str]:
    module = importlib.import_module(module_name)
    names = [n for n in dir(module) if not n.startswith("_")]
    if module_name.startswith("jax.lax"):
        names = [n for n in names if not n.endswith("_p")]
    return sorted(names)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--missing", action="store_true", help="print what trellax lacks")
    args = parser.parse_args()
    modules = {m: public_names(m) for m in MODULES}
    meta = {
        "jax": importlib.metadata.version("jax"),
        "jaxlib": importlib.metadata.version("jaxlib"),
        "python": platform.python_version(),
    }
    text = json.dumps({"meta": meta, "modules": modules}, indent=1, sort_keys=True)
    OUT_PATH.write_text(text + "\n")
    print(f"wrote {OUT_PATH} ({sum(map(len, modules.values()))} names)")
    if args.missing:
        for jax_name, names in modules.items():
            trellax_name = "trellax" + jax_name[3:]
            try:
                module = importlib.import_module(trellax_name)
            except ImportError:
                print(f"{jax_name}: module missing ({len(names)} names)")
                continue
            missing = [n for n in names if not hasattr(module, n)]
            print(f"{jax_name}: {len(missing)} of {len(names)} missing: {' '.join(missing)}")


if __name__ == "__main__":
    main()
