"""``optax.contrib``: every optimizer of optax 0.2.8's contrib, written for trellax (the
agreement with optax is in docs/compat.md)."""

from trellax._src.optim.adopt import adopt as adopt
from trellax._src.optim.adopt import scale_by_adopt as scale_by_adopt
from trellax._src.optim.contrib_adaptive import COCOBState as COCOBState
from trellax._src.optim.contrib_adaptive import DoGState as DoGState
from trellax._src.optim.contrib_adaptive import DoWGState as DoWGState
from trellax._src.optim.contrib_adaptive import ScaleByAdemamixState as ScaleByAdemamixState
from trellax._src.optim.contrib_adaptive import (
    ScaleBySimplifiedAdEMAMixState as ScaleBySimplifiedAdEMAMixState,
)
from trellax._src.optim.contrib_adaptive import acprop as acprop
from trellax._src.optim.contrib_adaptive import ademamix as ademamix
from trellax._src.optim.contrib_adaptive import cocob as cocob
from trellax._src.optim.contrib_adaptive import dog as dog
from trellax._src.optim.contrib_adaptive import dowg as dowg
from trellax._src.optim.contrib_adaptive import scale_by_acprop as scale_by_acprop
from trellax._src.optim.contrib_adaptive import scale_by_ademamix as scale_by_ademamix
from trellax._src.optim.contrib_adaptive import scale_by_cocob as scale_by_cocob
from trellax._src.optim.contrib_adaptive import scale_by_dog as scale_by_dog
from trellax._src.optim.contrib_adaptive import scale_by_dowg as scale_by_dowg
from trellax._src.optim.contrib_adaptive import (
    scale_by_simplified_ademamix as scale_by_simplified_ademamix,
)
from trellax._src.optim.contrib_adaptive import simplified_ademamix as simplified_ademamix
from trellax._src.optim.contrib_more import (
    DifferentiallyPrivateAggregateState as DifferentiallyPrivateAggregateState,
)
from trellax._src.optim.contrib_more import HutchinsonState as HutchinsonState
from trellax._src.optim.contrib_more import MechanicState as MechanicState
from trellax._src.optim.contrib_more import MomoAdamState as MomoAdamState
from trellax._src.optim.contrib_more import MomoState as MomoState
from trellax._src.optim.contrib_more import SophiaState as SophiaState
from trellax._src.optim.contrib_more import SplitRealAndImaginaryState as SplitRealAndImaginaryState
from trellax._src.optim.contrib_more import (
    differentially_private_aggregate as differentially_private_aggregate,
)
from trellax._src.optim.contrib_more import dpsgd as dpsgd
from trellax._src.optim.contrib_more import (
    hutchinson_estimator_diag_hessian as hutchinson_estimator_diag_hessian,
)
from trellax._src.optim.contrib_more import mechanize as mechanize
from trellax._src.optim.contrib_more import momo as momo
from trellax._src.optim.contrib_more import momo_adam as momo_adam
from trellax._src.optim.contrib_more import scale_by_sophia as scale_by_sophia
from trellax._src.optim.contrib_more import sophia as sophia
from trellax._src.optim.contrib_more import split_real_and_imaginary as split_real_and_imaginary
from trellax._src.optim.dadapt import DAdaptAdamWState as DAdaptAdamWState
from trellax._src.optim.dadapt import dadapt_adamw as dadapt_adamw
from trellax._src.optim.madgrad import MadgradState as MadgradState
from trellax._src.optim.madgrad import madgrad as madgrad
from trellax._src.optim.madgrad import scale_by_madgrad as scale_by_madgrad
from trellax._src.optim.muon import GaLoreDimensionNumbers as GaLoreDimensionNumbers
from trellax._src.optim.muon import GaLoreState as GaLoreState
from trellax._src.optim.muon import MuonDimensionNumbers as MuonDimensionNumbers
from trellax._src.optim.muon import MuonState as MuonState
from trellax._src.optim.muon import galore as galore
from trellax._src.optim.muon import muon as muon
from trellax._src.optim.muon import scale_by_galore as scale_by_galore
from trellax._src.optim.muon import scale_by_muon as scale_by_muon
from trellax._src.optim.plateau import ReduceLROnPlateauState as ReduceLROnPlateauState
from trellax._src.optim.plateau import reduce_on_plateau as reduce_on_plateau
from trellax._src.optim.prodigy import ProdigyState as ProdigyState
from trellax._src.optim.prodigy import prodigy as prodigy
from trellax._src.optim.sam import NormalizeState as NormalizeState
from trellax._src.optim.sam import SAMState as SAMState
from trellax._src.optim.sam import normalize as normalize
from trellax._src.optim.sam import sam as sam
from trellax._src.optim.schedule_free import ScheduleFreeState as ScheduleFreeState
from trellax._src.optim.schedule_free import schedule_free as schedule_free
from trellax._src.optim.schedule_free import schedule_free_adamw as schedule_free_adamw
from trellax._src.optim.schedule_free import schedule_free_eval_params as schedule_free_eval_params
from trellax._src.optim.schedule_free import schedule_free_sgd as schedule_free_sgd
