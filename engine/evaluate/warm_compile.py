"""Compile one of hiera's own torch.compile candidates ahead of its evaluation, into the shared compile cache.

    python -I -B /hiera/warm_compile.py /sandbox/candidate.py DEVICE PRECISION

Run in the sandbox a ModelNew runner gets (candidate_process.warm_compile), with the same compile cache
(/compile-cache) and the same view of the candidate file, during a round's build step and for every such
candidate of the round at once. Each candidate's runner then finds Inductor's graph and Triton's kernels in
the cache: a libraries + PyTorch round of six candidates compiled one after the other inside their
verification (17-90 s each on the H200), now about as long as its slowest compile.

Only hiera's own candidates (an expert backend's ModelNew around the task's Model) are warmed this way: they are
trusted code, so what they write to the shared cache may be read by the next. The program does what the runner
does before a first call — the precision flags, ModelNew(*get_init_inputs()) under a seed, the task's inputs on
the device, calls under no_grad — and nothing it does decides a verdict: a warm-up that fails only means the
candidate compiles in its own runner, as it would have.
"""

from __future__ import annotations

import importlib.util
import sys


def main() -> int:
    artifact, device, precision = sys.argv[1], sys.argv[2], sys.argv[3]
    import torch

    tf32 = precision == "tf32"
    torch.backends.cuda.matmul.allow_tf32 = tf32
    torch.backends.cudnn.allow_tf32 = tf32
    torch.set_float32_matmul_precision("high" if tf32 else "highest")
    # The same module name the runner imports the candidate under: graphs are keyed on what they were traced from.
    spec = importlib.util.spec_from_file_location("hiera_candidate", artifact)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["hiera_candidate"] = module
    spec.loader.exec_module(module)
    dev = torch.device(device)
    if dev.type == "cuda":
        torch.cuda.set_device(dev)
    torch.manual_seed(1234)
    model = module.ModelNew(*module.get_init_inputs()).to(dev).eval()
    with torch.device(dev):
        inputs = [x.to(dev) if isinstance(x, torch.Tensor) else x for x in module.get_inputs()]
    new_step = getattr(torch.compiler, "cudagraph_mark_step_begin", None)
    with torch.no_grad():
        for _ in range(2):  # the second call: CUDA-graph modes record on it
            if new_step is not None and "torch._inductor.cudagraph_trees" in sys.modules:
                new_step()
            model(*inputs)
    if dev.type == "cuda":
        torch.cuda.synchronize(dev)
    print("hiera warm compile: done", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
