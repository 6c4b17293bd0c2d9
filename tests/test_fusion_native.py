"""Fused regions' kernels as shared libraries (``interpreters/fusion_native.py``): built once per
host and kernel, loaded by a later process without Numba, and giving the Numba kernels' bits
(and, where the kernels compute no approximated function, the NumPy path's).

The programs run with small chunks (``compiled_chunk`` 256: chunks of 128 * 2**k elements summed
inside a kernel, a tail summed by NumPy, odd row lengths) on two threads, on inputs holding NaN,
+-inf, -0.0 and subnormals, contiguous and strided. No timing is asserted. The module uses its
own cache directory (``TRELLAX_CACHE_DIR``).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

pytest.importorskip("numba")

from trellax._src.interpreters import fusion_native, fusion_runtime, loop_native

if loop_native._host_key() is None:  # pragma: no cover - depends on the host
    pytest.skip("kernel libraries need Linux and a C compiler", allow_module_level=True)

PROGRAMS = """
import numpy as np
import trellax
import trellax.numpy as jnp
from trellax import lax

OPTIONS = dict(chunk=256, compiled_chunk=256, min_elements=0, compiled_min=0, threads=2,
               min_threaded=0)


def special(shape, dtype, seed):
    x = np.random.default_rng(seed).standard_normal(shape).astype(dtype).reshape(-1)
    x[:9] = [np.nan, np.inf, -np.inf, -0.0, 0.0, 1e-40 if dtype == "float32" else 1e-310,
             -3.0, 1e30 if dtype == "float32" else 1e300, 0.5]
    return x.reshape(shape)


def layer_norm(x):
    m = x.mean(-1, keepdims=True)
    v = ((x - m) ** 2).mean(-1, keepdims=True)
    return (x - m) * lax.rsqrt(v + 1e-5)


def cases():
    # name: (function, arguments, whether the kernels compute only exact operations)
    x32 = special(4099, "float32", 0)  # from 4,096: smaller sums are XLA-ordered, unfused
    x64 = special(1003, "float64", 1)
    y64 = special(1003, "float64", 2)[::-1].copy()
    rows32 = special((37, 301), "float32", 3)
    rows64 = special((37, 301), "float64", 4)
    b32 = special((301,), "float32", 5)
    big = special((600, 9), "float32", 6)
    return {
        "chain_sum": (lambda x: ((x * 2 + 1) ** 2).sum(), (x32,), True),
        "chain_sum_finite": (lambda x: ((x * 2 + 1) ** 2).sum(), (np.nan_to_num(x32),), True),
        "elementwise64": (
            lambda x, y: jnp.where(x > y, jnp.sqrt(jnp.abs(x)), -y) * y - jnp.maximum(x, y)
            + lax.erfc(x * 0.5),
            (x64, y64),
            True,
        ),
        "softmax_rows": (trellax.nn.softmax, (rows32,), False),
        "softmax_strided": (lambda x: trellax.nn.softmax(x.T), (big,), False),
        "layer_norm64": (layer_norm, (rows64,), True),
        "gelu_epilogue": (
            lambda h, b: trellax.nn.gelu(h + b, approximate=False), (rows32, b32), False
        ),
    }


def run(names=None, x64=True):
    with trellax.enable_x64(x64):
        out = {}
        for name, (f, args, _) in cases().items():
            if names is None or name in names:
                g = trellax.jit(lambda *a, f=f: f(*a))  # a new program every time
                out[name] = np.asarray(g(*args)).tobytes().hex()
        return out
"""
_ns: dict[str, Any] = {}
exec(PROGRAMS, _ns)


def _run(**options: Any) -> dict[str, str]:
    with fusion_runtime.fusion_options(**{**_ns["OPTIONS"], **options}):
        return _ns["run"]()  # type: ignore[no-any-return]


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """Every case's bytes on the NumPy path, by the Numba kernels and by the libraries (built
    here, in a cache directory of this module's own)."""
    cache = str(tmp_path_factory.mktemp("cache"))
    mp = pytest.MonkeyPatch()
    mp.setenv("TRELLAX_CACHE_DIR", cache)
    mp.setattr(fusion_native, "enabled", False)
    try:
        numpy_path = _run(compiled="off")
        numba = _run(compiled_wait=True)
        built = fusion_native.build_pending()
        mp.setattr(fusion_native, "enabled", True)
        calls: list[int] = []
        call = fusion_native.NativeKernel.__call__

        def counted(self: Any, *a: Any) -> Any:
            calls.append(1)
            return call(self, *a)

        mp.setattr(fusion_native.NativeKernel, "__call__", counted)
        library = _run(compiled_wait=False)  # no waiting: the libraries are on disk
        yield {
            "cache": cache,
            "numpy": numpy_path,
            "numba": numba,
            "library": library,
            "built": built,
            "calls": len(calls),
        }
    finally:
        mp.undo()


def test_every_kernel_was_built(built: dict[str, Any]) -> None:
    libs = built["built"]
    assert len(libs) >= 7
    assert all(lib.error is None and lib.on_disk() for lib in libs)
    assert built["calls"] > 0


@pytest.mark.parametrize("name", sorted(_ns["cases"]()))
def test_library_gives_the_numba_kernels_bits(built: dict[str, Any], name: str) -> None:
    assert built["library"][name] == built["numba"][name]


@pytest.mark.parametrize("name", sorted(n for n, c in _ns["cases"]().items() if c[2]))
def test_exact_kernels_give_the_numpy_paths_bits(built: dict[str, Any], name: str) -> None:
    assert built["library"][name] == built["numpy"][name]


def test_a_fresh_process_runs_the_libraries_without_numba(built: dict[str, Any]) -> None:
    script = PROGRAMS + textwrap.dedent(
        """
        import json, sys
        from trellax._src.interpreters import fusion_native, fusion_runtime
        calls = []
        call = fusion_native.NativeKernel.__call__
        def counted(self, *a):
            calls.append(1)
            return call(self, *a)
        fusion_native.NativeKernel.__call__ = counted
        with fusion_runtime.fusion_options(**OPTIONS):
            out = run()
        print(json.dumps([out, len(calls), "numba" in sys.modules, "llvmlite" in sys.modules]))
        """
    )
    env = dict(os.environ, TRELLAX_CACHE_DIR=built["cache"])
    for k in ("TRELLAX_NATIVE_FUSION", "TRELLAX_COMPILED", "TRELLAX_COMPILED_WAIT"):
        env.pop(k, None)
    r = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=300
    )
    assert r.returncode == 0, r.stderr[-2000:]
    out, calls, numba_loaded, llvmlite_loaded = json.loads(r.stdout.strip().splitlines()[-1])
    assert out == built["numba"]
    assert calls > 0  # the first call of every region ran the libraries
    assert not numba_loaded and not llvmlite_loaded


def _a_library(built: dict[str, Any]) -> fusion_native.NativeKernel:
    lib = next(lib for lib in built["built"] if lib.returns is None and lib.kinds[0][0] == 1)
    assert lib.load()
    return lib  # type: ignore[no-any-return]


def test_a_strided_output_or_another_dtype_is_refused(built: dict[str, Any]) -> None:
    lib = _a_library(built)
    arrays = [np.zeros((8,) * n, d) for n, d in lib.kinds]
    lib(0, *arrays)  # r = 0: runs nothing
    n_out = lib.kinds[-1][0]  # an output of the library's rank, strided along its first axis
    strided = [*arrays[:-1], np.zeros((16,) + (8,) * (n_out - 1), arrays[-1].dtype)[::2]]
    with pytest.raises(TypeError, match="strided output"):
        lib(0, *strided)
    other = [a.astype(np.int8) for a in arrays]
    with pytest.raises(TypeError, match="kernel library"):
        lib(0, *other)


def test_a_broken_library_keeps_the_numba_kernels(
    built: dict[str, Any], tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    lib = _a_library(built)
    broken = fusion_native.NativeKernel.__new__(fusion_native.NativeKernel)
    broken.__dict__.update(lib.__dict__)
    broken.fn, broken.failed = None, False
    assert broken.path is not None
    path = str(tmp_path / "lib")
    for ext in (".so", ".txt"):
        with open(path + ext, "w") as f:
            f.write("not a library" if ext == ".so" else "entry 64\n")
    broken.path = path
    assert broken.load() is False and broken.failed and broken.error is not None
    site = fusion_native.Site.__new__(fusion_native.Site)
    site.lib, site.native, site.kernel = broken, None, None  # type: ignore[assignment]
    assert fusion_native._load_all([site]) is False
    assert site.native is None


def _chain(options: dict[str, Any]) -> tuple[str, int]:
    """The chain's bytes and the count of library calls, in a new program."""
    import trellax

    f, (x,), _ = _ns["cases"]()["chain_sum"]
    calls: list[int] = []
    call = fusion_native.NativeKernel.__call__

    def counted(self: Any, *a: Any) -> Any:
        calls.append(1)
        return call(self, *a)

    fusion_native.NativeKernel.__call__ = counted  # type: ignore[method-assign]
    try:
        with fusion_runtime.fusion_options(**{**_ns["OPTIONS"], **options}):
            out = np.asarray(trellax.jit(lambda a: f(a))(x)).tobytes().hex()
    finally:
        fusion_native.NativeKernel.__call__ = call  # type: ignore[method-assign]
    return out, len(calls)


def test_switched_off_the_libraries_are_not_used(
    built: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TRELLAX_CACHE_DIR", built["cache"])
    monkeypatch.setattr(fusion_native, "enabled", True)
    # 16 chunks on NumPy's pairwise tree of the 4099-element sum: 15 of 256 elements, one of 259
    assert _chain({}) == (built["numba"]["chain_sum"], 16)
    monkeypatch.setattr(fusion_native, "enabled", False)
    assert _chain({"compiled_wait": True}) == (built["numba"]["chain_sum"], 0)


def test_small_regions_are_never_counted(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TRELLAX_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(fusion_native, "enabled", True)
    monkeypatch.setattr(fusion_native, "_LIBRARIES", {})  # named in this cache directory
    _chain({"compiled_wait": True})  # the Numba kernels: loaded, a region of 4099 elements
    where = [
        d
        for d in os.listdir(tmp_path)
        if d.endswith("-native-py{}{}".format(*sys.version_info[:2]))
    ]
    seen = [p for d in where for p in os.listdir(tmp_path / d) if p.endswith(".seen")]
    assert seen == []
    monkeypatch.setattr(fusion_native, "BUILD_MIN", 1000)
    monkeypatch.setattr(fusion_native, "BUILD_AFTER", 5)
    _chain({"compiled_wait": True})
    seen = [p for d in where for p in os.listdir(tmp_path / d) if p.endswith(".seen")]
    assert len(seen) == 2  # the two kernels of the region: counted once each


def test_the_build_waits_for_the_count_of_processes(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TRELLAX_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(fusion_native, "enabled", True)
    monkeypatch.setattr(fusion_native, "BUILD_AFTER", 3)
    from trellax._src.backend import compiled

    kernel = compiled.kernel(
        "@_kernel\ndef kernel(r, a0, o0):\n    for i0 in range(r):\n"
        "        o0[i0] = np.float32(a0[i0] + np.float32(7))\n"
    )
    site = fusion_native.Site(kernel, (0, np.zeros(1, np.float32), np.zeros(1, np.float32)), 1)
    lib = site.lib
    builds: list[int] = []
    monkeypatch.setattr(lib, "build", lambda: builds.append(1))
    counts = []
    for _ in range(3):  # three processes, as far as the count in the cache knows
        lib.counted = False
        fusion_native._count_and_build([site], inline=True)
        counts.append(builds.copy())
    assert counts == [[], [], [1]]
    assert lib.path is not None and os.path.getsize(lib.path + ".seen") == 3


def test_a_failed_build_is_not_tried_again(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TRELLAX_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(fusion_native, "enabled", True)
    monkeypatch.setattr(fusion_native, "BUILD_AFTER", 1)
    from trellax._src.backend import compiled

    kernel = compiled.kernel(
        "@_kernel\ndef kernel(r, a0, o0):\n    for i0 in range(r):\n"
        "        o0[i0] = np.float32(a0[i0] + np.float32(8))\n"
    )
    site = fusion_native.Site(kernel, (0, np.zeros(1, np.float32), np.zeros(1, np.float32)), 1)
    lib = site.lib
    assert lib.path is not None
    tries: list[int] = []

    def failing(path: str, text: str) -> None:
        tries.append(1)
        raise RuntimeError("no linker here")

    monkeypatch.setattr(lib, "_build", failing)
    fusion_native._count_and_build([site], inline=True)
    assert tries == [1] and isinstance(lib.error, RuntimeError)
    with open(lib.path + ".failed") as f:
        assert "no linker here" in f.read()
    lib.counted = lib.building = False  # as a new process would find it
    fusion_native._count_and_build([site], inline=True)
    assert tries == [1]


def test_without_a_compiler_no_library_is_named(
    built: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TRELLAX_CACHE_DIR", built["cache"])
    monkeypatch.setattr(fusion_native, "enabled", True)
    monkeypatch.setattr(fusion_native, "_LIBRARIES", {})
    monkeypatch.setattr(loop_native.shutil, "which", lambda name: None)  # no cc
    monkeypatch.setattr(loop_native, "_host_tried", False)
    monkeypatch.setattr(loop_native, "_host", None)
    assert loop_native._host_key() is None
    assert _chain({"compiled_wait": True}) == (built["numba"]["chain_sum"], 0)
    assert all(lib.path is None for lib in fusion_native._LIBRARIES.values())


def test_data_pointers_of_views_and_read_only_arrays() -> None:
    base = np.arange(40.0).reshape(5, 8)
    base.flags.writeable = False
    for a in (base, base[2:], base[1:, 3:], base.T, base[::2], np.asarray(np.float32(1))):
        assert fusion_native._data(a) == a.ctypes.data


def test_source_refuses_what_it_cannot_translate() -> None:
    assert fusion_native.source("def f(): pass\n", [], None) is None
    text = "@_kernel\ndef kernel(r, a0):\n    b = np.empty(r, np.float32)\n"
    assert fusion_native.source(text, [(1, "float32")], None) is None  # a run-time size
    assert fusion_native.source(text, [], None) is None  # kinds that do not match
