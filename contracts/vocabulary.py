"""The words every part of hiera names the same way: the three implementation spaces and the five directions.

A run is searched in one of three nested spaces and, within it, along one of five optimization directions
(README.md). The engine, the profile reading, the agents and the language server all speak of them, so
they are defined once, here, with the titles a person reads and the order in which tied scores resolve.
This module imports nothing beyond the standard library: the language server and the profile reading import
it without importing torch or the agents.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping


class Space(str, enum.Enum):
    """pure_cuda ⊂ cuda_libraries ⊂ libraries_pytorch: what a candidate's source may use."""

    PURE_CUDA = "pure_cuda"
    CUDA_LIBRARIES = "cuda_libraries"
    LIBRARIES_PYTORCH = "libraries_pytorch"

    @property
    def rank(self) -> int:
        return _SPACE_RANK[self]

    def allows(self, other: Space) -> bool:
        """True if everything legal in `other` is legal here (spaces are nested)."""
        return other.rank <= self.rank

    @property
    def title(self) -> str:
        return _SPACE_TITLES[self]


_SPACE_RANK = {Space.PURE_CUDA: 0, Space.CUDA_LIBRARIES: 1, Space.LIBRARIES_PYTORCH: 2}
_SPACE_TITLES = {Space.PURE_CUDA: "pure CUDA", Space.CUDA_LIBRARIES: "CUDA libraries",
                 Space.LIBRARIES_PYTORCH: "libraries + PyTorch"}


class Direction(str, enum.Enum):
    C = "C"  # control flow and boundary specialization
    P = "P"  # thread/warp parallelism: grid and block shape, work per thread, occupancy
    M = "M"  # memory transaction efficiency: coalescing, vector width, bank conflicts
    R = "R"  # data reuse and pipelining: tiling, register blocking, fusion, double buffering
    T = "T"  # tensor cores and the instruction pipeline

    @property
    def title(self) -> str:
        return _DIRECTION_TITLES[self]


_DIRECTION_TITLES = {Direction.C: "control flow", Direction.P: "parallelism", Direction.M: "memory transactions",
                     Direction.R: "data reuse / pipelining", Direction.T: "tensor cores / instruction pipeline"}

# The letters, in the order the directions are listed (profiles and JSON key their scores by letter).
DIRECTION_LETTERS = tuple(d.value for d in Direction)

# Ties between direction scores break in the order of typical payoff (C, P, M, R, T would be arbitrary).
TIE_ORDER = (Direction.R, Direction.M, Direction.T, Direction.P, Direction.C)


def strongest(scores: Mapping[str, float]) -> Direction:
    """The direction with the highest score, ties broken by TIE_ORDER; a missing direction scores 0.

    The keys may be Directions or their letters: a Direction's name is its letter, so both hash alike."""
    return max(TIE_ORDER, key=lambda d: (scores.get(d, 0.0), -TIE_ORDER.index(d)))
