"""``trellax.optim.losses``: optax's loss functions (``optax.losses``), per example."""

from trellax._src.optim.losses import convex_kl_divergence as convex_kl_divergence
from trellax._src.optim.losses import cosine_distance as cosine_distance
from trellax._src.optim.losses import cosine_similarity as cosine_similarity
from trellax._src.optim.losses import generalized_kl_divergence as generalized_kl_divergence
from trellax._src.optim.losses import hinge_loss as hinge_loss
from trellax._src.optim.losses import huber_loss as huber_loss
from trellax._src.optim.losses import kl_divergence as kl_divergence
from trellax._src.optim.losses import (
    kl_divergence_with_log_targets as kl_divergence_with_log_targets,
)
from trellax._src.optim.losses import l2_loss as l2_loss
from trellax._src.optim.losses import log_cosh as log_cosh
from trellax._src.optim.losses import multiclass_hinge_loss as multiclass_hinge_loss
from trellax._src.optim.losses import multiclass_perceptron_loss as multiclass_perceptron_loss
from trellax._src.optim.losses import perceptron_loss as perceptron_loss
from trellax._src.optim.losses import poly_loss_cross_entropy as poly_loss_cross_entropy
from trellax._src.optim.losses import safe_softmax_cross_entropy as safe_softmax_cross_entropy
from trellax._src.optim.losses import sigmoid_binary_cross_entropy as sigmoid_binary_cross_entropy
from trellax._src.optim.losses import sigmoid_focal_loss as sigmoid_focal_loss
from trellax._src.optim.losses import smooth_labels as smooth_labels
from trellax._src.optim.losses import softmax_cross_entropy as softmax_cross_entropy
from trellax._src.optim.losses import (
    softmax_cross_entropy_with_integer_labels as softmax_cross_entropy_with_integer_labels,
)
from trellax._src.optim.losses import sparsemax_loss as sparsemax_loss
from trellax._src.optim.losses import squared_error as squared_error
from trellax._src.optim.losses import triplet_margin_loss as triplet_margin_loss
from trellax._src.optim.losses_ctc import ctc_loss as ctc_loss
from trellax._src.optim.losses_ctc import ctc_loss_with_forward_probs as ctc_loss_with_forward_probs
from trellax._src.optim.losses_fy import make_fenchel_young_loss as make_fenchel_young_loss
from trellax._src.optim.losses_fy import multiclass_sparsemax_loss as multiclass_sparsemax_loss
from trellax._src.optim.losses_more import binary_dice_loss as binary_dice_loss
from trellax._src.optim.losses_more import dice_loss as dice_loss
from trellax._src.optim.losses_more import (
    multiclass_generalized_dice_loss as multiclass_generalized_dice_loss,
)
from trellax._src.optim.losses_more import ntxent as ntxent
from trellax._src.optim.losses_more import ranking_softmax_loss as ranking_softmax_loss
