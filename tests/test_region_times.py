"""Where the reference's time goes (engine/evaluate/region_times.py, contracts/regions.py): measured per submodule,
cut into regions that split the time, a region holding most of it split into its children."""

from __future__ import annotations

import json

import torch
from torch import nn

from contracts.regions import OWN, Region, RegionTimes
from engine.evaluate.region_times import measure


class Heavy(nn.Module):
    """A block whose time is almost all in its wide layer."""

    def __init__(self) -> None:
        super().__init__()
        self.wide = nn.Linear(512, 4096)
        self.narrow = nn.Linear(4096, 8)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.narrow(torch.relu(self.wide(x)))


class Model(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.block = Heavy()
        self.head = nn.Linear(8, 2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.head(self.block(x))


def test_the_region_that_holds_the_time_is_split_and_named_first() -> None:
    torch.manual_seed(0)
    rt = measure(Model().eval(), [torch.randn(256, 512)], torch.device("cpu"), calls=3)
    assert rt is not None and rt.calls >= 1 and rt.total_ms > 0
    paths = [r.path for r in rt.regions]
    # `block` holds nearly all of it, so it is replaced by its children; the wide layer leads.
    assert "block" not in paths and rt.regions[0].path == "block.wide", paths
    assert abs(sum(r.share for r in rt.regions) - 1.0) < 0.15
    assert rt.regions[0].share > 0.5
    back = RegionTimes.from_json(json.loads(json.dumps(rt.to_json())))
    assert back == rt and back.summary() == rt.summary()
    assert "block.wide (Linear)" in rt.summary()


def test_a_module_without_submodules_has_nothing_to_split() -> None:
    class Plain(nn.Module):
        def forward(self, x: torch.Tensor) -> torch.Tensor:
            return x * 2

    assert measure(Plain(), [torch.randn(4)], torch.device("cpu")) is None
    assert OWN.startswith("(")


def test_a_record_read_back_is_the_region_times_measured() -> None:
    """The figures are held as their record holds them (rounded once, where they are made): a measured total of
    8.45389100140892 ms was 8.453891 in the record, and the two compared unequal."""
    regions = (Region("lstm", "LSTM", 8.12345678901, 0.960949999), Region(OWN, "", 0.330434212, 0.0390500001))
    rt = RegionTimes(8.45389100140892, regions, "host clock around each submodule", 3)
    assert rt.total_ms == 8.453891 and rt.regions[0].ms == 8.123457 and rt.regions[0].share == 0.9609
    back = RegionTimes.from_json(json.loads(json.dumps(rt.to_json())))
    assert back == rt and back.summary() == rt.summary()
    assert RegionTimes.from_json(back.to_json()) == back  # and again: rounding held figures changes nothing
