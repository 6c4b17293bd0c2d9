"""XLA:CPU's float32 ``log`` and ``log1p`` as compiled loops: the arithmetic of
:mod:`.xla_log`, step for step, for Numba (the optional extra ``trellax[compiled]``).

Each fused multiply-add is written as :mod:`.xla_log` computes it (the float32 product widened to
float64, where it is exact, plus the addend, rounded to float32), every other step is a float32
operation, and Numba does not contract a product and a sum into one instruction (no fast-math
flags), so the two give the same bits: ``tests/test_xla_log.py`` compares them on every 251st
float32 bit pattern and at the golden file's hard inputs. The kernels are ``kernel(x, out)`` over
1-D float32 arrays; :mod:`trellax._src.random.compiled_kernels` compiles them with its others.
"""

from __future__ import annotations

from trellax._src.backend import xla_log


def _horner(name: str, coeffs: list[float], var: str) -> list[str]:
    """Source lines of ``P(var)`` by Horner's rule in fused steps, into ``name``."""
    lines = [f"    {name} = np.float32(np.float64({var}) * {coeffs[0]!r} + {coeffs[1]!r})"]
    lines += [
        f"    {name} = np.float32(np.float64({name}) * np.float64({var}) + {c!r})"
        for c in coeffs[2:]
    ]
    return lines


def _core_source() -> str:
    """``_xla_logf``: XLA's log of a float32 (specials included)."""
    p = xla_log.P32
    lines = [
        "@_inline",
        "def _xla_log_core(x):",
        "    ix = np.int32(np.float32(x).view(np.int32) - np.int32(0x3F3504F3))",
        "    e = np.float32(ix >> np.int32(23))",
        "    f = np.int32((ix & np.int32(0x007FFFFF)) + np.int32(0x3F3504F3)).view(np.float32)",
        "    f = np.float32(f - np.float32(1))",
        "    f2 = np.float32(f * f)",
        "    f3 = np.float32(f2 * f)",
        *_horner("a", p[0:3], "f"),
        *_horner("b", p[3:6], "f"),
        *_horner("c", p[6:9], "f"),
        "    a = np.float32(np.float64(a) * np.float64(f3) + np.float64(b))",
        "    a = np.float32(np.float64(a) * np.float64(f3) + np.float64(c))",
        f"    lo = np.float32(e * np.float32({float(xla_log.LN2_LO)!r}))",
        "    a = np.float32(np.float64(a) * np.float64(f3) + np.float64(lo))",
        "    r = np.float32(f - np.float32(np.float32(0.5) * f2))",
        "    r = np.float32(r + a)",
        f"    return np.float32(r + np.float32(e * np.float32({float(xla_log.LN2_HI)!r})))",
        "",
        "",
        "@_inline",
        "def _xla_logf(x):",
        "    # branch-free (selects), so that the loop vectorizes; specials last",
        "    tiny = np.float32(1.1754943508222875e-38)",
        "    r = _xla_log_core(max(x, tiny))",
        "    r = r if x >= tiny else np.int32(-1).view(np.float32)",
        "    r = -np.float32(np.inf) if abs(x) < tiny else r",
        "    return x if x == np.float32(np.inf) else r",
    ]
    return "\n".join(lines) + "\n\n\n"


def _log1p_source() -> str:
    """``_xla_log1pf``: XLA's log1p of a float32."""
    lines = [
        "@_inline",
        "def _xla_log1pf(x):",
        "    ax = abs(x)",
        "    big = _xla_logf(np.float32(x + np.float32(1)))",
        *_horner("num", xla_log.NUM32, "x"),
        *_horner("den", xla_log.DEN32, "x"),
        "    q = np.float32(num / den)",
        "    x2 = np.float32(x * x)",
        "    s = np.float32(np.float32(x2 * x) * q)",
        "    s = np.float32(s + np.float32(x2 * np.float32(-0.5)))",
        "    s = np.float32(x + s)",
        f"    r = s if ax < np.float32({float(xla_log.SMALL)!r}) else big",
        "    return np.float32(x * np.float32(0)) if ax < np.float32(1.1754943508222875e-38) else r",
    ]
    return "\n".join(lines) + "\n\n\n"


def kernel_source(name: str) -> str:
    """The kernel ``kernel(x, out)``: ``out[j] = log(x[j])`` (``name == "log"``) or ``log1p``."""
    fn = {"log": "_xla_logf", "log1p": "_xla_log1pf"}[name]
    body = (
        f"@_kernel\ndef kernel(x, out):\n    for j in range(x.size):\n        out[j] = {fn}(x[j])\n"
    )
    return _core_source() + _log1p_source() + body
