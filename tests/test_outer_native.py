"""The per-example outer product's kernel as a shared library (``interpreters/outer_compiled.py``
with ``loop_native.Library``): built once per host, loaded by a later process without Numba, and
giving NumPy's bits. No timing is asserted; each test uses its own cache directory."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any

import numpy as np
import pytest

pytest.importorskip("numba")

from trellax._src.interpreters import loop_native, outer_compiled

if loop_native._host_key() is None:  # pragma: no cover - depends on the host
    pytest.skip("shared kernel libraries need Linux and a C compiler", allow_module_level=True)

SCRIPT = """
import json, sys
import numpy as np
from trellax._src.interpreters import outer_compiled

def numpy_version(x, y, b, m, n):
    return x.reshape(b, m, 1) * y.reshape(b, 1, n)

def inputs(d):
    rng = np.random.default_rng(3)
    x = rng.standard_normal((300, 40)).astype(d)
    y = rng.standard_normal((300, 30)).astype(d)
    x[0, 0], x[1, 1], y[2, 2] = -0.0, np.finfo(d).tiny / 8, np.inf  # signed zero, subnormal
    return x, y

def run():
    out = {}
    for d in (np.float32, np.float64):
        x, y = inputs(d)
        r = outer_compiled.batched_outer(x, y, 300, 40, 30, numpy_version)
        out[np.dtype(d).name] = [r.tobytes().hex(), numpy_version(x, y, 300, 40, 30).tobytes().hex(),
                                 outer_compiled.library(np.dtype(d)) is not None]
    return out
"""


@pytest.fixture
def cache(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.setenv("TRELLAX_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(loop_native, "enabled", True)
    monkeypatch.setattr(outer_compiled, "LIBRARIES", {})
    return str(tmp_path)


def test_library_gives_numpys_bits_here_and_in_a_fresh_process_without_numba(
    cache: str,
) -> None:
    ns: dict[str, Any] = {}
    exec(SCRIPT, ns)
    for d in outer_compiled.DTYPES:
        lib = loop_native.Library(outer_compiled.library_source(d), "_trellax_outer_")
        assert not lib.on_disk()
        lib.build()
        assert lib.error is None, lib.error
        assert lib.fn is not None and lib.on_disk()
    here = ns["run"]()
    for name, (got, expected, loaded) in here.items():
        assert loaded, name  # the library computed it
        assert got == expected, name
    script = SCRIPT + "\nprint(json.dumps([run(), 'numba' in sys.modules]))\n"
    env = dict(os.environ, TRELLAX_CACHE_DIR=cache)
    r = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=300
    )
    assert r.returncode == 0, r.stderr[-2000:]
    fresh, numba_loaded = json.loads(r.stdout.strip().splitlines()[-1])
    assert fresh == here
    assert not numba_loaded


def test_a_broken_library_keeps_the_numpy_version(cache: str) -> None:
    d = np.dtype(np.float32)
    lib = loop_native.Library(outer_compiled.library_source(d), "_trellax_outer_")
    assert lib.path is not None
    with open(lib.path + ".txt", "w") as f:
        f.write("entry 64\n")
    with open(lib.path + ".so", "wb") as f:
        f.write(b"not a library")
    assert outer_compiled.library(d) is None
    assert outer_compiled.LIBRARIES[d].failed


def test_the_numba_kernels_first_product_builds_the_library(cache: str) -> None:
    from trellax._src.interpreters import fusion_runtime

    with fusion_runtime.fusion_options(compiled_wait=True):
        assert outer_compiled._start().done
    d = np.dtype(np.float64)
    x, y = np.ones((300, 40), d), np.full((300, 30), 3.0, d)
    numpy_version = lambda x, y, b, m, n: x.reshape(b, m, 1) * y.reshape(b, 1, n)  # noqa: E731
    first = outer_compiled.batched_outer(x, y, 300, 40, 30, numpy_version)
    lib = outer_compiled.LIBRARIES[d]
    assert lib.fn is None and lib.future is not None  # the Numba kernel ran; a build is queued
    lib.future.result(timeout=300)
    assert lib.error is None, lib.error
    assert lib.on_disk() and outer_compiled.library(d) is lib
    again = outer_compiled.batched_outer(x, y, 300, 40, 30, numpy_version)
    assert again.tobytes() == first.tobytes() == np.full((300, 40, 30), 3.0, d).tobytes()
