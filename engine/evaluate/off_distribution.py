"""Off-distribution trials: what is done to every floating-point input of a trial beside the task's own
draws. A candidate that is right only for get_inputs()'s own distribution (inputs in [0, 1), say) fails one of
these; a transform under which the reference itself leaves its domain (NaN or Inf) is skipped. The checker's
trials (checker.py) and the batch-size variants' (variants.py) use the same list.
"""

from __future__ import annotations

from collections.abc import Callable

import torch


def _wide(x: torch.Tensor) -> torch.Tensor:
    """x in the precision its statistics are taken in: float32, or float64 for a float64 tensor (its shift
    is then exact to fp64, not an fp32-rounded value)."""
    return x if x.dtype == torch.float64 else x.float()


def _spread(x: torch.Tensor) -> torch.Tensor:
    """x's standard deviation in x's dtype; 1 for a tensor of one element (a per-row input at batch 1, as the
    batch-size variants call it), whose deviation is undefined."""
    w = _wide(x)
    return (w.std() if x.numel() > 1 else w.new_ones(())).to(x.dtype)


# Off-distribution trials: what is done to every floating-point input. A candidate that is right only for
# get_inputs()'s own distribution (inputs in [0, 1), say) fails one of these; a transform under which the
# reference itself leaves its domain (NaN or Inf) is skipped.
TRANSFORMS: tuple[tuple[str, Callable[[torch.Tensor], torch.Tensor]], ...] = (
    # Large enough to overflow exp() where a softmax forgets to subtract its maximum.
    ("scaled by 100", lambda x: x * 100),
    ("negated", lambda x: -x),
    ("shifted by its standard deviation", lambda x: x + _spread(x)),
    # Centred: inputs of one sign (torch.rand) turned into inputs of both, the case that exposes a product or
    # a sum carried at lower precision (TF32's error cancels out on same-sign data).
    ("centred (mean subtracted)", lambda x: x - _wide(x).mean().to(x.dtype)),
)
