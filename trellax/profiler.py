"""``trellax.profiler``: JAX's profiler interface (``jax.profiler``) recording the host regions
a program annotates to a Chrome trace-event file (docs/compat.md)."""

from trellax._src.runtime.profiler import StepTraceAnnotation as StepTraceAnnotation
from trellax._src.runtime.profiler import TraceAnnotation as TraceAnnotation
from trellax._src.runtime.profiler import annotate_function as annotate_function
from trellax._src.runtime.profiler import device_memory_profile as device_memory_profile
from trellax._src.runtime.profiler import save_device_memory_profile as save_device_memory_profile
from trellax._src.runtime.profiler import start_server as start_server
from trellax._src.runtime.profiler import start_trace as start_trace
from trellax._src.runtime.profiler import stop_server as stop_server
from trellax._src.runtime.profiler import stop_trace as stop_trace
from trellax._src.runtime.profiler import trace as trace
