"""Other libraries' promotion, measured live on the installed versions.

Each adapter builds a strong value of a dtype and a weak value (a Python scalar) for ``i*``, ``f*``,
``c*``, promotes a pair the way that library does, and reads back the result dtype (and the weak
flag, if the library has one). Nothing here is tabulated: ``trellax table --vs numpy`` shows what
the NumPy on this machine does today.

* numpy: ``np.result_type`` of 0-d arrays and Python scalars (NumPy 2 promotes Python scalars
  weakly, NEP 50); bfloat16 comes from ml_dtypes. No x64 switch and no strict mode.
* torch: ``torch.result_type`` of 1-element tensors and Python scalars (a 0-d tensor is itself
  demoted to a "scalar" by torch, so it would not stand for an array).
* tensorflow: ``tf.math.add`` of 0-d tensors and Python scalars, TensorFlow's default behaviour.
* jax: ``jnp.add`` of ``jnp.zeros((), dtype)`` and Python scalars, with ``jax_enable_x64`` and
  ``jax_numpy_dtype_promotion`` set like trellax's config; the weak flag is compared too.
"""

from __future__ import annotations

import contextlib
import importlib
import importlib.util
import warnings
from collections.abc import Iterator
from typing import Any, ClassVar, Final

import numpy as np

from trellax._src.config import settings as _config
from trellax._src.dtypes import dtypes as _dt
from trellax._src.dtypes.dtypes import Node, WeakType
from trellax._src.report import spec
from trellax._src.report.compare import Comparison
from trellax._src.report.table import Cell, Table

LIBRARIES: Final = ("numpy", "torch", "tensorflow", "jax")
_PIP_NAME: Final = {"numpy": "numpy", "torch": "torch", "tensorflow": "tensorflow", "jax": "jax"}


class LibraryUnavailable(RuntimeError):
    """The library asked for is not installed (or failed to import)."""


def _scalar(node: WeakType) -> object:
    return node.python_type(0)


def _node_from_name(name: str) -> Node | None:
    """A result dtype, named by its library, as a trellax node (None if trellax has no such)."""
    try:
        return spec.parse(name)
    except spec.DTypeSpecError:
        return None


class Library:
    """Base adapter: subclasses say how to make values and promote a pair."""

    name: ClassVar[str] = ""
    how: ClassVar[str] = ""
    has_weak_type: ClassVar[bool] = False
    module: Any

    def __init__(self) -> None:
        self.module = importlib.import_module(self.name)

    @property
    def label(self) -> str:
        return f"{self.name} {getattr(self.module, '__version__', '?')}"

    @contextlib.contextmanager
    def configured(self, st: _config.State) -> Iterator[None]:
        """Puts the library in the configuration ``st`` (if it has such settings)."""
        yield

    def value(self, node: Node) -> object | None:
        """A value standing for ``node`` (None if the library lacks the dtype)."""
        raise NotImplementedError

    def result(self, a: object, b: object) -> tuple[str, bool]:
        """Promotes two values; returns the result dtype's name and weak flag (or raises)."""
        raise NotImplementedError

    def promote(self, x: Node, y: Node) -> Cell:
        """The library's result for ``x`` and ``y`` as a table :class:`Cell`."""
        a, b = self.value(x), self.value(y)
        if a is None or b is None:
            lacking = spec.name(x if a is None else y)
            return Cell(missing=f"{self.name} has no {lacking}")
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            try:
                dtype_name, weak = self.result(a, b)
            except Exception as e:  # the library's own refusal, whatever its class
                return Cell(error=f"{type(e).__name__}: {e}".splitlines()[0])
        node = _node_from_name(dtype_name)
        if node is None or isinstance(node, WeakType):
            return Cell(missing=f"result dtype {dtype_name} is not one of trellax's")
        return Cell(node, weak)

    def compare(self, table: Table, st: _config.State) -> Comparison:
        """Measures every cell of ``table`` and sets it against trellax's."""
        with self.configured(st):
            cells = {
                (i, j): self.promote(x, y)
                for i, x in enumerate(table.nodes)
                for j, y in enumerate(table.nodes)
            }
        return Comparison(table, self.label, self.how, cells, self.has_weak_type)

    def supported(self, nodes: tuple[Node, ...]) -> tuple[Node, ...]:
        """The nodes this library can make values of."""
        return tuple(n for n in nodes if self.value(n) is not None)


class NumPy(Library):
    name = "numpy"
    how = "np.result_type of 0-d arrays (strong) and Python scalars (weak)"

    def value(self, node: Node) -> object | None:
        if isinstance(node, WeakType):
            return _scalar(node)
        return np.zeros((), dtype=node)

    def result(self, a: object, b: object) -> tuple[str, bool]:
        return np.result_type(a, b).name, False  # type: ignore[arg-type]


class Torch(Library):
    name = "torch"
    how = "torch.result_type of 1-element tensors (strong) and Python scalars (weak)"

    def value(self, node: Node) -> object | None:
        if isinstance(node, WeakType):
            return _scalar(node)
        tdtype = getattr(self.module, node.name, None)
        if tdtype is None or not isinstance(tdtype, self.module.dtype):
            return None
        value: object = self.module.zeros((1,), dtype=tdtype)
        return value

    def result(self, a: object, b: object) -> tuple[str, bool]:
        return str(self.module.result_type(a, b)).removeprefix("torch."), False


class TensorFlow(Library):
    name = "tensorflow"
    how = "tf.math.add of 0-d tensors (strong) and Python scalars (weak), default TF behaviour"

    def value(self, node: Node) -> object | None:
        if isinstance(node, WeakType):
            return _scalar(node)
        try:
            tdtype = self.module.as_dtype(node.name)
        except TypeError:
            return None
        value: object = self.module.zeros((), dtype=tdtype)
        return value

    def result(self, a: object, b: object) -> tuple[str, bool]:
        out = self.module.math.add(a, b)
        return str(out.dtype.name), False


class Jax(Library):
    name = "jax"
    how = "jnp.add of jnp.zeros((), dtype) (strong) and Python scalars (weak), same x64/mode"
    has_weak_type = True

    def __init__(self) -> None:
        super().__init__()
        self.jnp = importlib.import_module("jax.numpy")

    @contextlib.contextmanager
    def configured(self, st: _config.State) -> Iterator[None]:
        jax = self.module
        before = bool(jax.config.jax_enable_x64)
        jax.config.update("jax_enable_x64", st.x64)
        try:
            with jax.numpy_dtype_promotion(st.mode):
                yield
        finally:
            jax.config.update("jax_enable_x64", before)

    def value(self, node: Node) -> object | None:
        if isinstance(node, WeakType):
            return _scalar(node)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # x32 truncation warnings for 64-bit dtypes
            value: object = self.jnp.zeros((), dtype=node)
        return value

    def result(self, a: object, b: object) -> tuple[str, bool]:
        out = self.jnp.add(a, b)
        return str(out.dtype), bool(out.weak_type)


_ADAPTERS: Final[dict[str, type[Library]]] = {
    "numpy": NumPy,
    "torch": Torch,
    "tensorflow": TensorFlow,
    "jax": Jax,
}


def load(name: str) -> Library:
    """The adapter for ``name``; :class:`LibraryUnavailable` if it is not installed."""
    if name not in _ADAPTERS:
        raise ValueError(f"unknown library {name!r}; choose one of {', '.join(LIBRARIES)}")
    if importlib.util.find_spec(name) is None:
        raise LibraryUnavailable(
            f"{name} is not installed in this Python environment "
            f"(pip install {_PIP_NAME[name]}); available here: {', '.join(available())}"
        )
    try:
        return _ADAPTERS[name]()
    except Exception as e:
        raise LibraryUnavailable(f"{name} failed to import: {type(e).__name__}: {e}") from None


def available() -> list[str]:
    """The libraries that can be compared against here."""
    return [n for n in LIBRARIES if importlib.util.find_spec(n) is not None]


def node_of(cell: Cell) -> Node:
    """A result cell as a lattice node, for feeding it back into promotion (raises on errors)."""
    if cell.node is None:
        raise _dt.TypePromotionError(cell.error or cell.missing or "no result")
    node = cell.node
    if cell.weak_type and not isinstance(node, WeakType):
        return _dt.to_node(node, True)
    return node
