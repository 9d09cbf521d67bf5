"""The three HIERA agents as interfaces, and the plain data they exchange.

- SSDA (space and direction agent): `select_space` picks one of the three implementation spaces;
  `score_directions` scores the five optimization directions C, P, M, R, T, each with its evidence.
- SPA (strategy planning agent): `plan` turns the argmax direction into a strategy from the knowledge base
  that is valid in the chosen space.
- OA (optimization agent): `generate` writes K candidate sources implementing the strategy against the
  frozen contract.

Backends (expert rules, an LLM) implement all three; the loop (engine/loop.py) only sees these types.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from contracts.device import Device, DeviceFacts
from contracts.regions import RegionTimes
from contracts.vocabulary import DIRECTION_LETTERS, Direction, Space, strongest
from engine.evaluate.outcome import Candidate, Outcome, Precision
from engine.task.spec import TaskSpec

if TYPE_CHECKING:
    from contracts.profile import Profile


@dataclass(frozen=True)
class SpaceChoice:
    space: Space
    rationale: str


@dataclass(frozen=True)
class DirectionScores:
    scores: dict[Direction, float]  # each in [0, 1]
    evidence: dict[Direction, tuple[str, ...]]
    rationale: str = ""

    @staticmethod
    def from_profile(profile: Profile) -> DirectionScores:
        """A profile's C/P/M/R/T reading as the agents' type, for the SSDA to start from or compare against."""
        rationale = ""
        if profile.bottleneck is not None:
            rationale = f"ncu bottleneck: {profile.bottleneck.rule} ({profile.bottleneck.direction or '?'})"
        return DirectionScores(
            scores={Direction(k): v for k, v in profile.scores.items() if k in DIRECTION_LETTERS},
            evidence={Direction(k): tuple(v) for k, v in profile.evidence.items() if k in DIRECTION_LETTERS},
            rationale=rationale,
        )

    def best(self) -> Direction:
        return strongest(self.scores)

    def as_json(self) -> dict[str, float]:
        return {d.value: round(self.scores.get(d, 0.0), 3) for d in Direction}

    def evidence_json(self) -> dict[str, list[str]]:
        return {d.value: list(self.evidence.get(d, ())) for d in Direction}


@dataclass(frozen=True)
class Strategy:
    direction: Direction
    space: Space
    name: str  # knowledge-base key, e.g. "M.vectorize_16B"
    description: str
    steps: tuple[str, ...] = ()
    params: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class RoundRecord:
    round: int
    space: Space
    direction: Direction
    strategy: str
    best_speedup: float | None
    outcomes: tuple[Outcome, ...]


@dataclass(frozen=True)
class Context:
    """Everything an agent may look at when it decides or writes code for one round."""

    spec: TaskSpec
    contract_dir: Path
    device: Device  # text ("cpu", "cuda:N") is parsed on construction
    device_facts: DeviceFacts  # what the worker found of the device (a dict of its JSON is read on construction)
    precision: Precision
    round: int
    rounds: int
    allowed_spaces: tuple[Space, ...]  # all three in auto mode; one in a fixed-space run
    parent: Candidate | None  # the current best valid candidate (None: the reference is the parent)
    parent_outcome: Outcome | None
    parent_profile: Profile | None  # when profiling ran
    history: tuple[RoundRecord, ...] = ()
    reference_ms: float | None = None
    use_contract: bool = True  # False: the "without contract" ablation (whole ModelNew .py candidates)
    planning: bool = True  # False: the "without planning" ablation
    regions: RegionTimes | None = None  # where the reference's forward spends its time (contracts/regions.py)

    def __post_init__(self) -> None:
        object.__setattr__(self, "device", Device.parse(self.device))
        object.__setattr__(self, "device_facts", DeviceFacts.from_json(self.device_facts))

    @property
    def on_gpu(self) -> bool:
        return self.device.is_cuda

    def contract_text(self) -> dict[str, str]:
        """The frozen contract files, by name (for prompts)."""
        names = ("hiera_contract.h", "params_semantics.json", "groundtruth.py")
        return {n: (self.contract_dir / n).read_text() for n in names if (self.contract_dir / n).exists()}


@dataclass(frozen=True)
class Invalid:
    """A generation attempt that produced no usable source (malformed reply, refusal, timeout)."""

    id: str
    reason: str
    source: str = ""


@dataclass
class Usage:
    """Model usage of one agent call; the expert backend records zero tokens and its seconds."""

    role: str  # ssda | spa | oa
    model: str | None
    prompt_tokens: int = 0
    completion_tokens: int = 0
    seconds: float = 0.0
    cost_usd: float | None = None
    ok: bool = True
    error: str | None = None


class SpaceDirectionAgent(Protocol):
    def select_space(self, ctx: Context) -> SpaceChoice: ...

    def score_directions(self, ctx: Context, space: Space) -> DirectionScores: ...


class PlanningAgent(Protocol):
    def plan(self, ctx: Context, space: Space, scores: DirectionScores) -> Strategy: ...


class OptimizationAgent(Protocol):
    def generate(self, ctx: Context, space: Space, strategy: Strategy, k: int) -> list[Candidate | Invalid]: ...


class Backend(Protocol):
    """One backend provides all three agents and reports what its calls cost."""

    name: str
    ssda: SpaceDirectionAgent
    spa: PlanningAgent
    oa: OptimizationAgent

    def drain_usage(self) -> list[Usage]:
        """Usage records since the last drain (the loop stores them with the round)."""
        ...
