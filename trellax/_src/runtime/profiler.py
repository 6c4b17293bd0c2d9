"""``trellax.profiler``: JAX's profiler interface, recording the regions a program annotates.

JAX's profiler records XLA's device activity for TensorBoard. trellax runs NumPy on the host, so
what there is to record is the host time of the regions a program marks: ``TraceAnnotation``,
``StepTraceAnnotation``, ``annotate_function`` (and the whole ``trace``). While a trace is active
(``with trace(log_dir):`` or ``start_trace``/``stop_trace``) each region is recorded with its
name, arguments, thread and start/end times, and ``stop_trace`` writes them as a Chrome trace-event
file (``log_dir/trellax_trace_<time>.json``, readable by Perfetto and ``chrome://tracing``).
Outside a trace the annotations cost one context-variable read. The device-memory profile and
the profiler server have no counterpart: they raise ``NotImplementedError`` saying so.
"""

from __future__ import annotations

import functools
import json
import os
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import TracebackType
from typing import Any, TypeVar

F = TypeVar("F", bound=Callable[..., Any])


class _Session:
    """The trace being recorded: its folder and the finished regions (Chrome "complete"
    events: name, start and duration in microseconds, thread, arguments)."""

    def __init__(self, log_dir: str) -> None:
        self.log_dir = os.fspath(log_dir)
        self.start = time.perf_counter()
        self.events: list[dict[str, Any]] = []
        self.lock = threading.Lock()

    def add(self, name: str, begin: float, end: float, args: dict[str, Any]) -> None:
        event = {
            "name": name,
            "ph": "X",
            "ts": (begin - self.start) * 1e6,
            "dur": (end - begin) * 1e6,
            "pid": os.getpid(),
            "tid": threading.get_ident(),
            "args": {
                k: repr(v) if not isinstance(v, (int, float, str)) else v for k, v in args.items()
            },
        }
        with self.lock:
            self.events.append(event)

    def write(self) -> str:
        os.makedirs(self.log_dir, exist_ok=True)
        stamp = time.strftime("%Y_%m_%d_%H_%M_%S")
        path = os.path.join(self.log_dir, f"trellax_trace_{stamp}_{os.getpid()}.json")
        tmp = path + ".tmp"
        with open(tmp, "w") as f:
            json.dump({"traceEvents": self.events, "displayTimeUnit": "ms"}, f)
        os.replace(tmp, path)
        return path


_session: _Session | None = None
_session_lock = threading.Lock()


def start_trace(
    log_dir: str | os.PathLike[str],
    create_perfetto_link: bool = False,
    create_perfetto_trace: bool = False,
    profiler_options: Any = None,
) -> None:
    """Starts recording annotated regions (written to ``log_dir`` by :func:`stop_trace`)."""
    del create_perfetto_link, create_perfetto_trace, profiler_options
    global _session
    with _session_lock:
        if _session is not None:
            raise RuntimeError(
                "Profile has already been started. Only one profile may be run at a time."
            )
        _session = _Session(os.fspath(log_dir))


def stop_trace() -> None:
    """Stops recording and writes the trace file."""
    global _session
    with _session_lock:
        if _session is None:
            raise RuntimeError("No profile started")
        session, _session = _session, None
    session.add("trace", session.start, time.perf_counter(), {})
    session.write()


@contextmanager
def trace(
    log_dir: str | os.PathLike[str],
    create_perfetto_link: bool = False,
    create_perfetto_trace: bool = False,
    profiler_options: Any = None,
) -> Iterator[None]:
    """Records the annotated regions of the ``with`` block to ``log_dir``."""
    start_trace(log_dir, create_perfetto_link, create_perfetto_trace, profiler_options)
    try:
        yield
    finally:
        stop_trace()


class TraceAnnotation:
    """A named region of the host timeline (a context manager), with keyword arguments shown
    beside it."""

    def __init__(self, name: str, **kwargs: Any) -> None:
        self.name = name
        self.kwargs = kwargs
        self._begin = 0.0

    def __enter__(self) -> TraceAnnotation:
        if _session is not None:
            self._begin = time.perf_counter()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        session = _session
        if session is not None and self._begin:
            session.add(self.name, self._begin, time.perf_counter(), self.kwargs)


class StepTraceAnnotation(TraceAnnotation):
    """A training step: ``StepTraceAnnotation("train", step_num=i)``."""

    def __init__(self, name: str, **kwargs: Any) -> None:
        super().__init__(name, **kwargs)


def annotate_function(func: F, name: str | None = None, **decorator_kwargs: Any) -> F:
    """``func`` with every call recorded as a region named ``name`` (default: its name)."""
    label: str = name or str(getattr(func, "__qualname__", getattr(func, "__name__", "function")))

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        with TraceAnnotation(label, **decorator_kwargs):
            return func(*args, **kwargs)

    return wrapper  # type: ignore[return-value]


def start_server(port: int) -> Any:
    """JAX's profiler server (for TensorBoard to connect to): trellax has none."""
    raise NotImplementedError(
        "trellax has no profiler server (it records annotated host regions only: use "
        "trellax.profiler.trace(log_dir))"
    )


def stop_server() -> None:
    """See :func:`start_server`."""
    raise NotImplementedError("trellax has no profiler server")


def device_memory_profile(backend: str | None = None) -> bytes:
    """JAX's pprof profile of device memory: trellax's arrays are NumPy arrays on the host."""
    raise NotImplementedError(
        "trellax has no device memory profile: its arrays are NumPy arrays (use tracemalloc)"
    )


def save_device_memory_profile(filename: str, backend: str | None = None) -> None:
    """See :func:`device_memory_profile`."""
    device_memory_profile(backend)
