"""Baselines timed by the same evaluator as candidates: torch.compile of the reference in its modes.

A baseline is a ModelNew file that embeds the task and compiles its forward; it goes through the same
worker, the same verification and the same interleaved timing against eager as any candidate, so its
speedup and a candidate's are measured the same way.
"""

from __future__ import annotations

from pathlib import Path

COMPILE_MODES = ("default", "max-autotune")


def compile_baseline_source(task_path: Path, mode: str) -> str:
    return f'''# torch.compile(mode={mode!r}) of the reference, as a ModelNew (a baseline written by hiera bench).
{task_path.read_text()}


import torch as _torch


class ModelNew(Model):
    def __init__(self, *init_inputs):
        super().__init__(*init_inputs)
        self._compiled = _torch.compile(Model.forward.__get__(self), mode={mode!r})

    def forward(self, *inputs):
        return self._compiled(*inputs)
'''


def write_baselines(task_path: Path, out_dir: Path) -> dict[str, Path]:
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = {}
    for mode in COMPILE_MODES:
        p = out_dir / f"{task_path.stem}__compile_{mode.replace('-', '_')}.py"
        p.write_text(compile_baseline_source(task_path, mode))
        paths[mode] = p
    return paths
