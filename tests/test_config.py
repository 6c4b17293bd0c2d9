"""Config: ``trellax.config`` (update/read), the context managers, threads, env vars, caches."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import trellax
import trellax.numpy as tnp
from trellax import config
from trellax._src.config import settings as config_lib
from trellax._src.dtypes import dtypes as dtypes_lib

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True)
def restore_global_config() -> Iterator[None]:
    """Every test starts from the default config and leaves the global value as it found it."""
    saved = config_lib._global_state[0]
    config_lib._global_state[0] = config_lib.State(False, "standard")
    token = config_lib._local_state.set(None)
    try:
        yield
    finally:
        config_lib._local_state.reset(token)
        config_lib._global_state[0] = saved


def current() -> tuple[bool, str]:
    return config.enable_x64, config.numpy_dtype_promotion


# -- update and read ------------------------------------------------------------------------------


def test_defaults() -> None:
    assert current() == (False, "standard")
    assert config.x64_enabled is False
    assert repr(config) == (
        "Config(enable_x64=False, numpy_dtype_promotion='standard', fused_excess_precision=False)"
    )


@pytest.mark.parametrize(
    ("name", "value", "read"),
    [
        ("enable_x64", True, True),
        ("enable_x64", False, False),
        ("enable_x64", "1", True),
        ("enable_x64", "true", True),
        ("enable_x64", "0", False),
        ("enable_x64", "False", False),
        ("numpy_dtype_promotion", "strict", "strict"),
        ("numpy_dtype_promotion", "standard", "standard"),
    ],
)
def test_update_and_read(name: str, value: object, read: object) -> None:
    config.update(name, value)
    assert getattr(config, name) == read
    assert config.read(name) == read
    assert config.read(f"trellax_{name}") == read


def test_flags_are_independent() -> None:
    config.update("numpy_dtype_promotion", "strict")
    config.update("enable_x64", True)
    assert current() == (True, "strict")
    config.update("numpy_dtype_promotion", "standard")
    assert current() == (True, "standard")


VALID_OPTIONS = "valid options are 'enable_x64', 'numpy_dtype_promotion'"


@pytest.mark.parametrize(
    ("call", "error", "words"),
    [
        (lambda: config.update("enable_x32", True), AttributeError,
         f"Unrecognized config option: enable_x32; {VALID_OPTIONS}"),
        (lambda: config.update("jax_enable_x32", True), AttributeError, VALID_OPTIONS),
        (lambda: config.read("x64"), AttributeError,
         f"Unrecognized config option: x64; {VALID_OPTIONS}"),
        (lambda: config.update("numpy_dtype_promotion", "loose"), ValueError,
         "'loose' is not a valid numpy_dtype_promotion; valid values are 'standard', 'strict'"),
        (lambda: config.update("numpy_dtype_promotion", "STRICT"), ValueError,
         "valid values are 'standard', 'strict'"),
        (lambda: config.update("numpy_dtype_promotion", None), ValueError,
         "valid values are 'standard', 'strict'"),
        (lambda: config.update("enable_x64", "maybe"), ValueError,
         "enable_x64 must be a bool (or one of the strings 1, true, "),
        (lambda: config.update("enable_x64", None), ValueError, "got None"),
        (lambda: trellax.numpy_dtype_promotion("full"), ValueError,
         "'full' is not a valid numpy_dtype_promotion; valid values are 'standard', 'strict'"),
        (lambda: trellax.enable_x64("maybe"), ValueError, "enable_x64 must be a bool"),
    ],
)  # fmt: skip
def test_invalid_names_and_values_are_refused(call: Any, error: type, words: str) -> None:
    with pytest.raises(error) as info:
        call()
    assert words in str(info.value)
    assert current() == (False, "standard")  # nothing changed


# -- context managers -----------------------------------------------------------------------------


def test_context_managers_nest_and_restore() -> None:
    with trellax.enable_x64(True) as state:
        assert state == config_lib.State(True, "standard")
        assert current() == (True, "standard")
        with trellax.numpy_dtype_promotion("strict"):
            assert current() == (True, "strict")
            with trellax.enable_x64(False):
                assert current() == (False, "strict")
            assert current() == (True, "strict")
        assert current() == (True, "standard")
    assert current() == (False, "standard")


def test_enable_x64_defaults_to_true() -> None:
    with trellax.enable_x64():
        assert config.enable_x64 is True


def test_context_managers_restore_on_exceptions() -> None:
    with (
        pytest.raises(ZeroDivisionError),
        trellax.enable_x64(True),
        trellax.numpy_dtype_promotion("strict"),
    ):
        assert current() == (True, "strict")
        1 / 0
    assert current() == (False, "standard")


def test_context_manager_object_can_be_reused_and_nested() -> None:
    cm = trellax.numpy_dtype_promotion("strict")
    with cm:
        with cm:
            assert config.numpy_dtype_promotion == "strict"
        assert config.numpy_dtype_promotion == "strict"
    assert config.numpy_dtype_promotion == "standard"
    with cm:
        assert config.numpy_dtype_promotion == "strict"


def test_context_managers_as_decorators() -> None:
    @trellax.enable_x64(True)
    def x64_depth(n: int) -> list[tuple[bool, str]]:
        seen = [current()]
        return seen + (x64_depth(n - 1) if n else [])

    @trellax.numpy_dtype_promotion("strict")
    def strict() -> tuple[bool, str]:
        return current()

    assert x64_depth(3) == [(True, "standard")] * 4  # re-entrant
    assert strict() == (False, "strict")
    assert current() == (False, "standard")

    @trellax.enable_x64(True)
    def fails() -> None:
        raise KeyError("x")

    with pytest.raises(KeyError):
        fails()
    assert current() == (False, "standard")


def test_local_override_wins_over_global_update() -> None:
    with trellax.enable_x64(True):
        config.update("enable_x64", False)
        assert config.enable_x64 is True
        config.update("numpy_dtype_promotion", "strict")
        assert config.numpy_dtype_promotion == "standard"  # the override fixed both flags
    assert current() == (False, "strict")  # the global updates took effect


def test_internal_state_context() -> None:
    with config_lib._state(config_lib.State(True, "strict")):
        assert current() == (True, "strict")
        with trellax.enable_x64(False):
            assert current() == (False, "strict")
    assert current() == (False, "standard")


# -- threads and tasks ----------------------------------------------------------------------------


def run_in_thread(fn: Any) -> Any:
    out: list[Any] = []
    t = threading.Thread(target=lambda: out.append(fn()))
    t.start()
    t.join()
    return out[0]


def test_new_thread_sees_global_value_not_the_override() -> None:
    config.update("numpy_dtype_promotion", "strict")
    with trellax.enable_x64(True), trellax.numpy_dtype_promotion("standard"):
        assert current() == (True, "standard")
        assert run_in_thread(current) == (False, "strict")


def test_global_update_from_a_thread_is_seen_everywhere() -> None:
    run_in_thread(lambda: config.update("enable_x64", True))
    assert config.enable_x64 is True


def probe() -> tuple[bool, str, str]:
    """The flags, and an answer that differs in each config (x32 int32, x64 int64, strict ERR)."""
    try:
        answer = dtypes_lib.promote_types("int32", "uint32").name
    except dtypes_lib.TypePromotionError:
        answer = "ERR"
    return (*current(), answer)


def test_threads_with_different_overrides_do_not_interfere() -> None:
    barrier = threading.Barrier(3, timeout=10)
    seen: dict[str, list[tuple[bool, str, str]]] = {"x64": [], "strict": [], "main": []}

    def worker(name: str, cm: Any) -> None:
        with cm:
            barrier.wait()  # all three threads are inside their blocks
            for _ in range(50):
                seen[name].append(probe())
            barrier.wait()  # nobody leaves before everyone has looked
        seen[name].append(probe())

    threads = [
        threading.Thread(target=worker, args=("x64", trellax.enable_x64(True))),
        threading.Thread(target=worker, args=("strict", trellax.numpy_dtype_promotion("strict"))),
    ]
    for t in threads:
        t.start()
    barrier.wait()
    for _ in range(50):
        seen["main"].append(probe())
    barrier.wait()
    for t in threads:
        t.join()
    assert seen["x64"] == [(True, "standard", "int64")] * 50 + [(False, "standard", "int32")]
    assert seen["strict"] == [(False, "strict", "ERR")] * 50 + [(False, "standard", "int32")]
    assert seen["main"] == [(False, "standard", "int32")] * 50


def test_asyncio_tasks_have_their_own_overrides() -> None:
    async def task(cm: Any, log: list[tuple[bool, str]]) -> None:
        with cm:
            for _ in range(3):
                log.append(current())
                await asyncio.sleep(0)

    async def main() -> tuple[list[Any], list[Any]]:
        a: list[Any] = []
        b: list[Any] = []
        await asyncio.gather(
            task(trellax.enable_x64(True), a), task(trellax.numpy_dtype_promotion("strict"), b)
        )
        return a, b

    a, b = asyncio.run(main())
    assert a == [(True, "standard")] * 3
    assert b == [(False, "strict")] * 3


# One context-manager object shared by several threads or tasks at once, and re-entered (JAX's
# context managers allow both).
SHARED = [
    (lambda: trellax.enable_x64(True), (True, "standard", "int64")),
    (lambda: trellax.numpy_dtype_promotion("strict"), (False, "strict", "ERR")),
]


@pytest.mark.parametrize(("make", "inside"), SHARED)
def test_one_override_object_shared_by_threads(make: Any, inside: Any) -> None:
    cm = make()
    n = 4
    barrier = threading.Barrier(n, timeout=10)
    seen: list[list[Any]] = [[] for _ in range(n)]
    errors: list[BaseException] = []

    def worker(i: int) -> None:
        try:
            barrier.wait()
            with cm:
                barrier.wait()  # every thread is inside the same object's block
                seen[i].append(probe())
                with cm:  # re-entered
                    seen[i].append(probe())
                barrier.wait()
            seen[i].append(probe())
        except BaseException as e:  # pragma: no cover - reported below
            errors.append(e)
            barrier.abort()

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    assert seen == [[inside, inside, (False, "standard", "int32")]] * n


@pytest.mark.parametrize(("make", "inside"), SHARED)
def test_one_override_object_shared_by_asyncio_tasks(make: Any, inside: Any) -> None:
    cm = make()

    async def task(delay: int) -> list[Any]:
        log = []
        for _ in range(delay):
            await asyncio.sleep(0)
        with cm:
            await asyncio.sleep(0)  # other tasks enter and leave meanwhile
            log.append(probe())
            with cm:
                await asyncio.sleep(0)
                log.append(probe())
        log.append(probe())
        return log

    async def main() -> list[list[Any]]:
        return list(await asyncio.gather(*(task(d) for d in (0, 1, 0, 2, 3))))

    logs = asyncio.run(main())
    assert logs == [[inside, inside, (False, "standard", "int32")]] * 5


def test_reentered_override_restores_each_level() -> None:
    x64 = trellax.enable_x64(True)
    off = trellax.enable_x64(False)
    with x64:
        with off:
            with x64:
                assert current() == (True, "standard")
            assert current() == (False, "standard")
        assert current() == (True, "standard")
    assert current() == (False, "standard")


def test_shared_override_as_a_decorator_in_threads() -> None:
    @trellax.numpy_dtype_promotion("strict")
    def strict_answer() -> Any:
        return probe()

    results = []
    threads = [threading.Thread(target=lambda: results.append(strict_answer())) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == [(False, "strict", "ERR")] * 4


# -- environment variables, read at import --------------------------------------------------------


def import_with_env(**env: str) -> subprocess.CompletedProcess[str]:
    environ = {k: v for k, v in os.environ.items() if not k.startswith("TRELLAX_")}
    environ.update(env)
    environ["PYTHONPATH"] = os.pathsep.join([str(REPO), environ.get("PYTHONPATH", "")])
    code = "import trellax; print(trellax.config.enable_x64, trellax.config.numpy_dtype_promotion)"
    return subprocess.run(
        [sys.executable, "-c", code], env=environ, capture_output=True, text=True, timeout=60
    )


@pytest.mark.parametrize(
    ("env", "printed"),
    [
        ({}, "False standard"),
        ({"TRELLAX_ENABLE_X64": "1", "TRELLAX_NUMPY_DTYPE_PROMOTION": "strict"}, "True strict"),
        ({"TRELLAX_ENABLE_X64": "false", "TRELLAX_NUMPY_DTYPE_PROMOTION": "STRICT"},
         "False strict"),
    ],
)  # fmt: skip
def test_environment_variables(env: dict[str, str], printed: str) -> None:
    proc = import_with_env(**env)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == printed


def test_bad_environment_variable_is_refused_at_import() -> None:
    proc = import_with_env(TRELLAX_NUMPY_DTYPE_PROMOTION="loose")
    assert proc.returncode != 0
    assert "'loose' is not a valid TRELLAX_NUMPY_DTYPE_PROMOTION" in proc.stderr
    assert "'standard', 'strict'" in proc.stderr


# -- caches follow the config ---------------------------------------------------------------------


def test_promotion_results_follow_the_config() -> None:
    """The join and result caches are keyed by config: flipping a flag back and forth, through
    update and through the context managers, always gives the answer of the config in force."""
    rt, pt = dtypes_lib.result_type, dtypes_lib.promote_types
    for _ in range(3):
        assert rt("int8", 1.0).name == "float32"
        assert pt("int32", "uint32").name == "int32"
        assert rt("int8", "int16").name == "int16"
        config.update("enable_x64", True)
        assert rt("int8", 1.0).name == "float64"
        assert pt("int32", "uint32").name == "int64"
        config.update("enable_x64", False)
        with trellax.enable_x64(True):
            assert rt("int8", 1.0).name == "float64"
        with trellax.numpy_dtype_promotion("strict"):
            with pytest.raises(dtypes_lib.TypePromotionError):
                rt("int8", "int16")
            with pytest.raises(dtypes_lib.TypePromotionError):
                pt("int32", "uint32")
        config.update("numpy_dtype_promotion", "strict")
        with pytest.raises(dtypes_lib.TypePromotionError):
            rt("int8", "int16")
        config.update("numpy_dtype_promotion", "standard")


def test_op_level_cache_follows_the_config() -> None:
    w16 = (dtypes_lib.int16, True)
    lrt = dtypes_lib.lattice_result_type
    for _ in range(2):
        assert lrt(w16, w16) == (dtypes_lib.int16, True)
        with trellax.numpy_dtype_promotion("strict"):
            assert lrt(w16, w16) == (dtypes_lib.int32, True)
            with trellax.enable_x64(True):
                assert lrt(w16, w16) == (dtypes_lib.int64, True)


def test_one_jitted_function_called_from_many_threads() -> None:
    f = trellax.jit(lambda x, y: tnp.sum(x * y) + tnp.arange(x.shape[0]).sum())
    barrier = threading.Barrier(6, timeout=10)
    results: dict[int, Any] = {}

    def worker(n: int) -> None:
        barrier.wait()  # all threads trace and run at once
        with trellax.enable_x64(n % 2 == 0):
            results[n] = (f(tnp.ones(n), tnp.full(n, 2.0)), config.enable_x64)

    threads = [threading.Thread(target=worker, args=(n,)) for n in range(1, 7)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for n, (out, x64) in results.items():
        assert x64 == (n % 2 == 0)
        assert float(out) == 2 * n + n * (n - 1) // 2
        assert out.dtype == (np.float64 if x64 else np.float32)


def test_no_tracing_refuses_cache_misses() -> None:
    f = trellax.jit(lambda x: x * 2)
    f(1.0)
    with trellax.no_tracing():
        assert float(f(2.0)) == 4.0  # the cached program
        with pytest.raises(RuntimeError, match=r"re-tracing function <lambda> at .* 'no_tracing'"):
            f(trellax.numpy.ones(2))
    assert f(trellax.numpy.ones(2)).shape == (2,)


def test_allow_f16_reductions_false() -> None:
    x = trellax.numpy.ones(3, "bfloat16")
    with trellax.allow_f16_reductions(False):
        for half in (x, x.astype("float16")):
            with pytest.raises(ValueError, match=r"reduce_sum on operand .*16\[3\] is not allowed"):
                trellax.lax.reduce_sum(half, [0])
        assert float(trellax.numpy.sum(x)) == 3.0  # computed in float32
        assert trellax.lax.reduce_sum(trellax.numpy.ones((1, 3), "bfloat16"), [0]).shape == (3,)
    assert float(trellax.lax.reduce_sum(x, [0])) == 3.0
