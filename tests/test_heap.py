"""The heap pad (``backend/heap.py``): when trellax tunes glibc's malloc and when it leaves it
alone. (The setting itself changes no result; its effect, fewer page faults, is measured in
docs/performance.md, not asserted here.)"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from trellax._src.backend import heap


def test_requested_pad(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TRELLAX_HEAP_PAD", raising=False)
    assert heap._requested_pad() == heap.DEFAULT_PAD
    monkeypatch.setenv("TRELLAX_HEAP_PAD", "0")
    assert heap._requested_pad() == 0
    monkeypatch.setenv("TRELLAX_HEAP_PAD", "1048576")
    assert heap._requested_pad() == 1 << 20
    monkeypatch.setenv("TRELLAX_HEAP_PAD", "lots")
    with pytest.raises(ValueError, match="TRELLAX_HEAP_PAD"):
        heap._requested_pad()
    monkeypatch.setenv("TRELLAX_HEAP_PAD", "-1")
    with pytest.raises(ValueError, match=">= 0"):
        heap._requested_pad()


@pytest.mark.parametrize(
    ("name", "value", "tunes"),
    [
        ("MALLOC_TOP_PAD_", "0", True),
        ("MALLOC_TRIM_THRESHOLD_", "65536", True),
        ("MALLOC_MMAP_THRESHOLD_", "65536", True),
        ("GLIBC_TUNABLES", "glibc.malloc.trim_threshold=65536", True),
        ("GLIBC_TUNABLES", "glibc.cpu.hwcaps=-AVX2", False),
        ("MALLOC_ARENA_MAX", "2", False),
    ],
)
def test_user_settings_are_respected(
    monkeypatch: pytest.MonkeyPatch, name: str, value: str, tunes: bool
) -> None:
    for var in ("MALLOC_TOP_PAD_", "MALLOC_TRIM_THRESHOLD_", "MALLOC_MMAP_THRESHOLD_"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.delenv("GLIBC_TUNABLES", raising=False)
    monkeypatch.setenv(name, value)
    assert heap._user_tunes_malloc() is tunes


def _first_compile_sets_pad(env: dict[str, str]) -> str:
    code = (
        "import trellax, trellax.numpy as tnp\n"
        "from trellax._src.backend import heap\n"
        "assert 'done' not in heap._state\n"
        "trellax.jit(lambda x: x + 1)(tnp.ones(3))\n"
        "print(heap._state['done'], heap.keep_heap_pad())\n"
    )
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("MALLOC_", "TRELLAX_HEAP"))}
    out = subprocess.run(
        [sys.executable, "-c", code], env={**clean, **env}, capture_output=True, text=True
    )
    assert out.returncode == 0, out.stderr
    return out.stdout.split()[0]


def test_set_once_at_the_first_compile_and_switched_off_by_the_variable() -> None:
    try:
        is_glibc = "glibc" in (os.confstr("CS_GNU_LIBC_VERSION") or "")
    except (ValueError, OSError, AttributeError):  # not a glibc system
        is_glibc = False
    assert _first_compile_sets_pad({}) == str(is_glibc)
    assert _first_compile_sets_pad({"TRELLAX_HEAP_PAD": "0"}) == "False"
    assert _first_compile_sets_pad({"MALLOC_TRIM_THRESHOLD_": "131072"}) == "False"
