"""``optax.schedules``: the learning-rate schedules and ``inject_hyperparams`` under optax's
submodule name (the same objects as ``trellax.optim``'s)."""

from trellax._src.optim.inject import InjectHyperparamsState as InjectHyperparamsState
from trellax._src.optim.inject import (
    InjectStatefulHyperparamsState as InjectStatefulHyperparamsState,
)
from trellax._src.optim.inject import WrappedSchedule as WrappedSchedule
from trellax._src.optim.inject import inject_hyperparams as inject_hyperparams
from trellax._src.optim.inject import (
    inject_stateful_hyperparams as inject_stateful_hyperparams,
)
from trellax._src.optim.names_more import Schedule as Schedule
from trellax._src.optim.names_more import StatefulSchedule as StatefulSchedule
from trellax._src.optim.schedules import constant_schedule as constant_schedule
from trellax._src.optim.schedules import cosine_decay_schedule as cosine_decay_schedule
from trellax._src.optim.schedules import exponential_decay as exponential_decay
from trellax._src.optim.schedules import join_schedules as join_schedules
from trellax._src.optim.schedules import linear_schedule as linear_schedule
from trellax._src.optim.schedules import piecewise_constant_schedule as piecewise_constant_schedule
from trellax._src.optim.schedules import polynomial_schedule as polynomial_schedule
from trellax._src.optim.schedules import sgdr_schedule as sgdr_schedule
from trellax._src.optim.schedules import warmup_constant_schedule as warmup_constant_schedule
from trellax._src.optim.schedules import (
    warmup_cosine_decay_schedule as warmup_cosine_decay_schedule,
)
from trellax._src.optim.schedules import (
    warmup_exponential_decay_schedule as warmup_exponential_decay_schedule,
)
from trellax._src.optim.schedules_interp import (
    cosine_onecycle_schedule as cosine_onecycle_schedule,
)
from trellax._src.optim.schedules_interp import (
    linear_onecycle_schedule as linear_onecycle_schedule,
)
from trellax._src.optim.schedules_interp import (
    piecewise_interpolate_schedule as piecewise_interpolate_schedule,
)
