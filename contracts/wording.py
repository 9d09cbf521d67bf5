"""Words that depend on where a run ran, and numbers in units a person reads: the CLI and the editor say
them alike.

The engine names its implementation spaces after the GPU (pure_cuda, cuda_libraries, libraries_pytorch).
On the CPU the same spaces hold generated C++ loop nests, C++ library calls and PyTorch, and the CLI and
the editor say so, from the run's recorded device. The engine's rationale is rewritten the same way for a CPU
run, and its roofline clause is kept only where the ceilings were measured on the machine: a bound computed from
default CPU ceilings is not a bound (the engine printed "roofline 8.594e+04 us" for an eager run of 53 ms).
Durations read "8.221 ms" or "333.3 µs", never "8.594e+04 us".
"""

from __future__ import annotations

import re

from contracts.device import Device
from contracts.verdict import flag_words
from contracts.vocabulary import Space

GPU_SPACE_TITLES = {s.value: s.title for s in Space}  # the engine's own titles
CPU_SPACE_TITLES = {"pure_cuda": "native C++", "cuda_libraries": "C++ libraries",
                    "libraries_pytorch": "libraries + PyTorch"}

_ROOFLINE = re.compile(r"(?P<lead>[,;]?\s*)roofline (?P<us>[0-9.]+(?:e[+-]?\d+)?) us on (?P<src>[^,;|]+?) ceilings",
                       re.I)
_MICROS = re.compile(r"\b(?P<us>[0-9]+(?:\.[0-9]+)?(?:e[+-]?\d+)?) us\b")


def device_words(device: object, name: object = None) -> str:
    """A run's device as every view says it: "cuda:0 (NVIDIA H200)" from its two fields (the device and its name,
    kept apart on the wire), the device alone where there is no name ("?" where there is neither). A record from
    before the two were apart holds the whole label in `device`, and reads the same."""
    text = str(device or "").strip() or "?"
    return f"{text} ({name})" if name and f"({name})" not in text else text


def is_cpu(device: object) -> bool:
    """A run's device ("cpu", "cuda:0", a Device; from older records the label "cpu (x86_64)", "cuda:0 (NVIDIA
    H200)"; "auto": not known)."""
    label = str(device or "").strip().lower().split(" ", 1)[0]
    try:
        return not Device.parse(label).is_cuda
    except ValueError:
        return False


def space_titles(device: str | None) -> dict[str, str]:
    return CPU_SPACE_TITLES if is_cpu(device) else GPU_SPACE_TITLES


def space_title(space: str | None, device: str | None) -> str:
    return space_titles(device).get(space or "", space or "?")


def duration(ms: float | None) -> str:
    """'1.234 s', '8.221 ms', '333.3 µs'; '-' for no value."""
    if not isinstance(ms, (int, float)) or isinstance(ms, bool) or ms != ms:
        return "-"
    if ms >= 1000:
        return f"{ms / 1000:.4g} s"
    if ms >= 1:
        return f"{ms:.4g} ms"
    return f"{ms * 1000:.4g} µs"


def readable_rationale(text: str | None, device: str | None) -> str:
    """The engine's rationale in the run's own words (see the module docstring)."""
    out = str(text or "")
    cpu = is_cpu(device)

    def roofline(m: re.Match[str]) -> str:
        if cpu and m.group("src").strip().lower() != "measured":
            return ""
        return f"{m.group('lead')}roofline {duration(float(m.group('us')) / 1000)} on {m.group('src')} ceilings"

    out = _ROOFLINE.sub(roofline, out)
    out = _MICROS.sub(lambda m: duration(float(m.group("us")) / 1000), out)
    titles = space_titles(device)
    if cpu:  # the engine's GPU titles ("pure CUDA: 2 generated C++ loop nests") read as what they are
        for space, gpu_title in sorted(GPU_SPACE_TITLES.items(), key=lambda kv: -len(kv[1])):
            out = out.replace(gpu_title, titles[space])
    for space, title in titles.items():  # raw ids ("-> pure_cuda") as titles, on any device
        out = re.sub(rf"\b{space}\b", title, out)
    return out


def flag_phrase(flag: str) -> str:
    """A flag as the terminal words it, after its own "flagged:" label: the editor's words
    (contracts.verdict.flag_words) with the engine's detail, 'over 10x — check before trusting (17.0x; ...)'."""
    return flag_words(flag, "x", detail=True).removeprefix("flagged: ")
