"""Pytree speed: flatten, unflatten and map of a small (10 leaves) and a large (10,000 leaves) tree,
side by side with ``jax.tree_util`` and raw ``optree`` when they are installed.

trellax flattens a recurring small structure with generated code, and rebuilds a treedef that is
used again with generated code. The rows marked "new structure" switch the first off and use a
treedef only once, so they show what the first call with a structure costs (jax and optree have no
such distinction: their numbers are the same operation).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext
from typing import Any

from _harness import Row, best_time, optional_import, print_table

from trellax import tree_util as tu
from trellax._src.tree import flatten as tree_flatten


def small_tree() -> Any:
    return {
        "params": {"w": 1.0, "b": 2.0},
        "opt": [3.0, (4.0, 5.0)],
        "step": 6,
        "rng": (7, 8),
        "extra": [9.0, None, 10.0],
    }


def large_tree() -> Any:
    return [{"w": float(i), "b": i + 1, "c": (i, i)} for i in range(2500)]


class _Forgetful(dict[Any, Any]):
    """A cache that never keeps anything."""

    def __setitem__(self, key: Any, value: Any) -> None:
        pass


class _ForgetfulSet(set[Any]):
    def add(self, item: Any) -> None:
        pass


@contextmanager
def new_structures() -> Iterator[None]:
    """Makes every structure look new to trellax: no generated flattener is learned or used (the
    bookkeeping of learning still runs, as it does for a structure seen for the first time)."""
    saved = (
        tree_flatten._SEEN_SHAPES,
        tree_flatten._SEEN,
        tree_flatten._FLATTENERS,
        dict(tree_flatten._GUESSES),
    )
    tree_flatten._SEEN_SHAPES = _ForgetfulSet()
    tree_flatten._SEEN, tree_flatten._FLATTENERS = _Forgetful(), _Forgetful()
    tree_flatten._GUESSES.clear()
    try:
        yield
    finally:
        tree_flatten._SEEN_SHAPES, tree_flatten._SEEN, tree_flatten._FLATTENERS = saved[:3]
        tree_flatten._GUESSES.update(saved[3])


class _Lib:
    """One library's pytree functions under common names."""

    def __init__(self, name: str, module: Any) -> None:
        self.name = name
        self.flatten: Callable[[Any], tuple[list[Any], Any]] = module.tree_flatten
        self.unflatten: Callable[[Any, list[Any]], Any] = module.tree_unflatten
        self.structure: Callable[[Any], Any] = module.tree_structure
        self.map: Callable[..., Any] = module.tree_map


def _ident(x: Any) -> Any:
    return x


def _first(x: Any, y: Any) -> Any:
    return x


def _cases(lib: _Lib, tree: Any) -> dict[str, Callable[[], object]]:
    leaves, treedef = lib.flatten(tree)
    return {
        "flatten": lambda: lib.flatten(tree),
        "flatten, new structure": lambda: lib.flatten(tree),
        "unflatten": lambda: lib.unflatten(treedef, leaves),
        "flatten+unflatten, new structure": lambda: lib.unflatten(lib.structure(tree), leaves),
        "map": lambda: lib.map(_ident, tree),
        "map, 2 trees": lambda: lib.map(_first, tree, tree),
    }


def _rows(label: str, tree: Any, libs: list[_Lib]) -> list[Row]:
    cases = {lib.name: _cases(lib, tree) for lib in libs}
    rows = []
    for case in cases[libs[0].name]:
        times: dict[str, float | None] = {}
        for lib in libs:
            fresh = "new structure" in case and lib.name == "trellax"
            with new_structures() if fresh else nullcontext():
                times[lib.name] = best_time(cases[lib.name][case], min_time=0.05, repeat=3)
        rows.append(Row(f"{label}: {case}", times))
    return rows


def main() -> None:
    jax_tree_util = optional_import("jax.tree_util")
    optree = optional_import("optree")
    libs = [_Lib("trellax", tu)]
    if jax_tree_util is not None:
        libs.append(_Lib("jax", jax_tree_util))
    if optree is not None:
        libs.append(_Lib("optree", optree))
    baseline = "jax" if jax_tree_util is not None else "trellax"
    missing = [name for name, mod in [("jax", jax_tree_util), ("optree", optree)] if mod is None]
    print(f"baseline: {baseline}" + (f" ({', '.join(missing)} not installed)" if missing else ""))
    rows = _rows("10 leaves", small_tree(), libs) + _rows("10,000 leaves", large_tree(), libs)
    print_table("pytrees (per call)", rows, baseline=baseline)


if __name__ == "__main__":
    main()
