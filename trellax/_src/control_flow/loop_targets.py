"""Where the generated code of a loop body writes its results (the loop side of
:mod:`trellax._src.interpreters.loop_buffers`): a ``scan``'s stacked outputs into their row of
the ``ys`` buffer, new carries of ``scan`` and ``while`` alternately into two buffers allocated
before the loop. Used only with the compiler's specializations on (``specialize.enabled``), so
the tests can compare every program with and without it."""

from __future__ import annotations

from typing import Any

from trellax._src.core.jaxpr import Jaxpr, Var
from trellax._src.interpreters import loop_buffers, tracing


class Targets:
    """Where a loop body's results are written (:mod:`loop_buffers`): stacked outputs into
    their row of the ``ys`` buffer, new carries alternately into two buffers."""

    def __init__(
        self,
        em: tracing.Emitter,
        first: int,
        n_carry: int,
        bufs: list[str],
        t: str,
        iterate: bool = False,
    ) -> None:
        self.em, self.first, self.n_carry, self.bufs, self.t = em, first, n_carry, bufs, t
        #: Whether the loop iterates over the rows (a name per row) rather than indexing them.
        self.iterate = iterate
        #: Stacked outputs written into their rows: var -> (the row's name, its buffer).
        self.rows: dict[Var, tuple[str, str]] = {}
        self.pairs: dict[Var, tuple[str, str]] = {}
        self.ys: list[Any] = []

    def plan(self, body: Jaxpr, steps: list[Any]) -> None:
        """Chooses the targets once the body is planned (:meth:`tracing.Emitter.jaxpr`)."""
        em = self.em
        self.ys = list(body.outvars[self.n_carry :])
        if not loop_buffers.active():
            return
        for buf, v in zip(self.bufs, self.ys):
            if type(v) is Var and self.ys.count(v) == 1 and v not in body.invars:
                row = em.fresh("r") if self.iterate else f"{buf}[{self.t}]"
                self.rows[v] = (row, buf)
                em.out_targets[v] = row
                em.written.discard(v)  # a body emitted twice decides again
        carried = loop_buffers.carry_buffers(
            body, self.first, self.n_carry, steps, skip=list(self.rows)
        )
        for v in carried:
            pair = (em.fresh("w"), em.fresh("w"))
            for name in pair:
                em.loop_allocs[-1].append(loop_buffers.allocation(name, v, em.bind))
            self.pairs[v] = pair
            em.out_targets[v] = pair[0]
            em.written.discard(v)

    def release(self) -> None:
        for v in [*self.rows, *self.pairs]:
            self.em.out_targets.pop(v, None)

    def swap(self, indent: str) -> None:
        """Emits the exchange of each used buffer pair (the next carry goes to the other)."""
        for v, (a, b) in self.pairs.items():
            if v in self.em.written:
                self.em.emit(f"{indent}{a}, {b} = {b}, {a}")
