"""``jax._src.util``: the list helpers that programs written for JAX import from it (JAX's own
docs use ``safe_map``), with their behaviour: the ``safe_`` forms refuse sequences of different
lengths."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeVar

T = TypeVar("T")


def safe_map(f: Callable[..., T], *args: Iterable[Any]) -> list[T]:
    """``list(map(f, *args))``, refusing arguments of different lengths."""
    lists = [list(a) for a in args]
    n = len(lists[0]) if lists else 0
    for i, a in enumerate(lists[1:], 1):
        if len(a) != n:
            raise ValueError(f"length mismatch: {[len(x) for x in lists]} (argument {i})")
    return list(map(f, *lists))


def safe_zip(*args: Iterable[Any]) -> list[tuple[Any, ...]]:
    """``list(zip(*args))``, refusing arguments of different lengths."""
    lists = [list(a) for a in args]
    n = len(lists[0]) if lists else 0
    if any(len(a) != n for a in lists):
        raise ValueError(f"length mismatch: {[len(x) for x in lists]}")
    return list(zip(*lists))


def unzip2(pairs: Iterable[tuple[Any, Any]]) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    """The two sequences of a sequence of pairs."""
    firsts: list[Any] = []
    seconds: list[Any] = []
    for a, b in pairs:
        firsts.append(a)
        seconds.append(b)
    return tuple(firsts), tuple(seconds)


def unzip3(
    triples: Iterable[tuple[Any, Any, Any]],
) -> tuple[tuple[Any, ...], tuple[Any, ...], tuple[Any, ...]]:
    """The three sequences of a sequence of triples."""
    a: list[Any] = []
    b: list[Any] = []
    c: list[Any] = []
    for x, y, z in triples:
        a.append(x)
        b.append(y)
        c.append(z)
    return tuple(a), tuple(b), tuple(c)


def split_list(args: Sequence[T], ns: Sequence[int]) -> list[list[T]]:
    """``args`` cut into pieces of lengths ``ns`` and the rest."""
    rest = list(args)
    pieces: list[list[T]] = []
    for n in ns:
        pieces.append(rest[:n])
        rest = rest[n:]
    pieces.append(rest)
    return pieces


def partition_list(bs: Sequence[bool], xs: Sequence[T]) -> tuple[list[T], list[T]]:
    """The elements of ``xs`` whose flag is False, and those whose flag is True."""
    if len(bs) != len(xs):
        raise ValueError(f"length mismatch: {len(bs)} flags for {len(xs)} elements")
    return [x for b, x in zip(bs, xs) if not b], [x for b, x in zip(bs, xs) if b]


def merge_lists(bs: Sequence[bool], l0: Sequence[T], l1: Sequence[T]) -> list[T]:
    """Inverse of :func:`partition_list`."""
    i0, i1 = iter(l0), iter(l1)
    return [next(i1) if b else next(i0) for b in bs]


def tuple_update(t: tuple[T, ...], idx: int, val: T) -> tuple[T, ...]:
    """``t`` with its element ``idx`` replaced by ``val``."""
    if not -len(t) <= idx < len(t):
        raise IndexError(f"tuple index {idx} out of range for length {len(t)}")
    idx %= len(t)
    return (*t[:idx], val, *t[idx + 1 :])


def subvals(lst: Sequence[Any], replace: Iterable[tuple[int, Any]]) -> tuple[Any, ...]:
    """``lst`` as a tuple with the element at each index of ``replace`` replaced."""
    out = list(lst)
    for i, v in replace:
        out[i] = v
    return tuple(out)
