"""Window functions for the spectral estimators of ``trellax.scipy.signal`` (what SciPy's
``get_window`` gives with ``fftbins=True``: the periodic form, a symmetric window of ``M + 1``
points without its last point).

Windows are static data (they depend only on the name, parameters and length), computed here in
float64 with NumPy from their textbook definitions. Supported: ``boxcar`` (``rect``,
``rectangular``, ``ones``), ``triang``, ``bartlett``, ``hann`` (``hanning``), ``hamming``,
``blackman``, ``blackmanharris``, ``nuttall``, ``flattop``, ``cosine``, ``bohman``, ``parzen``,
``barthann``, and with parameters given as a tuple ``("tukey", alpha)`` (``tukey`` alone means
``alpha=0.5``), ``("kaiser", beta)``, ``("gaussian", std)``, ``("general_gaussian", p, sig)``,
``("general_hamming", alpha)``, ``("general_cosine", coefficients)``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

F64 = np.ndarray[Any, np.dtype[Any]]

_COSINE_SUMS: dict[str, tuple[float, ...]] = {
    "hann": (0.5, 0.5),
    "hamming": (0.54, 0.46),
    "blackman": (0.42, 0.50, 0.08),
    "blackmanharris": (0.35875, 0.48829, 0.14128, 0.01168),
    "nuttall": (0.3635819, 0.4891775, 0.1365995, 0.0106411),
    "flattop": (0.21557895, 0.41663158, 0.277263158, 0.083578947, 0.006947368),
}
_ALIASES = {
    "hanning": "hann",
    "han": "hann",
    "rect": "boxcar",
    "rectangular": "boxcar",
    "ones": "boxcar",
    "box": "boxcar",
    "triangle": "triang",
    "blackman-harris": "blackmanharris",
    "tuk": "tukey",
    "ksr": "kaiser",
    "gauss": "gaussian",
}


def _cosine_sum(m: int, coefficients: Sequence[float]) -> F64:
    """``sum_k (-1)^k a_k cos(2 pi k n / (m - 1))`` (symmetric)."""
    phase = np.linspace(-np.pi, np.pi, m)
    w = np.zeros(m)
    for k, a in enumerate(coefficients):
        w += a * np.cos(k * phase)
    return w


def _triang(m: int) -> F64:
    n = np.arange(1, (m + 1) // 2 + 1)
    if m % 2 == 0:
        half = (2 * n - 1.0) / m
        return np.concatenate([half, half[::-1]])
    half = 2 * n / (m + 1.0)
    return np.concatenate([half, half[-2::-1]])


def _bartlett(m: int) -> F64:
    n = np.arange(m)
    return np.where(n <= (m - 1) / 2.0, 2.0 * n / (m - 1), 2.0 - 2.0 * n / (m - 1))


def _tukey(m: int, alpha: float = 0.5) -> F64:
    if alpha <= 0:
        return np.ones(m)
    if alpha >= 1:
        return _cosine_sum(m, _COSINE_SUMS["hann"])
    n = np.arange(m)
    width = int(np.floor(alpha * (m - 1) / 2.0))
    n1, n2, n3 = n[: width + 1], n[width + 1 : m - width - 1], n[m - width - 1 :]
    w1 = 0.5 * (1 + np.cos(np.pi * (-1 + 2.0 * n1 / alpha / (m - 1))))
    w3 = 0.5 * (1 + np.cos(np.pi * (-2.0 / alpha + 1 + 2.0 * n3 / alpha / (m - 1))))
    return np.concatenate([w1, np.ones(n2.shape), w3])


def _centered(m: int) -> F64:
    return np.arange(m) - (m - 1) / 2.0


def _bohman(m: int) -> F64:
    x = np.abs(np.linspace(-1, 1, m)[1:-1])
    inner = (1 - x) * np.cos(np.pi * x) + np.sin(np.pi * x) / np.pi
    return np.concatenate([[0.0], inner, [0.0]])


def _parzen(m: int) -> F64:
    n = np.arange(-(m - 1) / 2.0, (m - 1) / 2.0 + 0.5, 1.0)
    a = np.abs(n)
    outer = 2 * (1 - a / (m / 2.0)) ** 3
    inner = 1 - 6 * (a / (m / 2.0)) ** 2 + 6 * (a / (m / 2.0)) ** 3
    return np.asarray(np.where(a <= (m - 1) / 4.0, inner, outer), dtype=np.float64)


def _barthann(m: int) -> F64:
    fac = np.abs(np.arange(m) / (m - 1.0) - 0.5)
    return 0.62 - 0.48 * fac + 0.38 * np.cos(2 * np.pi * fac)


_PLAIN: dict[str, Callable[[int], F64]] = {
    "boxcar": np.ones,
    "triang": _triang,
    "bartlett": _bartlett,
    "cosine": lambda m: np.sin(np.pi / m * (np.arange(m) + 0.5)),
    "bohman": _bohman,
    "parzen": _parzen,
    "barthann": _barthann,
    "tukey": _tukey,
}
for _name, _coefficients in _COSINE_SUMS.items():
    _PLAIN[_name] = functools.partial(_cosine_sum, coefficients=_coefficients)
_WITH_PARAMS: dict[str, Callable[..., F64]] = {
    "tukey": _tukey,
    "kaiser": lambda m, beta: np.kaiser(m, beta),
    "gaussian": lambda m, std: np.exp(-(_centered(m) ** 2) / (2.0 * std * std)),
    "general_gaussian": lambda m, p, sig: np.exp(-0.5 * np.abs(_centered(m) / sig) ** (2 * p)),
    "general_hamming": lambda m, alpha: _cosine_sum(m, (alpha, 1.0 - alpha)),
    "general_cosine": lambda m, a: _cosine_sum(m, a),
}


def get_window(window: str | tuple[Any, ...], nperseg: int) -> F64:
    """The periodic window ``window`` (a name or a ``(name, *parameters)`` tuple) of length
    ``nperseg``, in float64."""
    if isinstance(window, tuple):
        if not window:
            raise ValueError("window tuple must start with the window name")
        name, params = window[0], window[1:]
    else:
        name, params = window, ()
    key = _ALIASES.get(str(name), str(name)) if isinstance(name, str) else None
    if key is None or (key not in _PLAIN and key not in _WITH_PARAMS):
        raise ValueError(
            f"Invalid window name {name!r} in parameter window={window!r}! trellax supports "
            f"{sorted({*_PLAIN, *_WITH_PARAMS})}"
        )
    if params:
        if key not in _WITH_PARAMS:
            raise ValueError(f"The {key!r} window takes no parameters, got {params}")
        build: Callable[[int], F64] = lambda m: _WITH_PARAMS[key](m, *params)  # noqa: E731
    elif key in _PLAIN:
        build = _PLAIN[key]
    else:
        raise ValueError(f"The {key!r} window needs one or more parameters -- pass a tuple.")
    m = int(nperseg)
    if m <= 1:
        return np.ones(max(m, 0))
    return np.asarray(build(m + 1)[:-1], dtype=np.float64)


def window_length_check(win: Any, nperseg: int) -> None:
    if np.ndim(win) != 1:
        raise ValueError("window must be 1-D")
    if np.shape(win)[0] != nperseg:
        raise ValueError("value specified for nperseg is different from length of window")
