"""Write bf16 (or fp16) variants of KernelBench-format tasks by casting (issue 43).

Each variant is the task's own source, unchanged, followed by a block that casts: `Model.__init__` ends with
`self.to(DTYPE)` (floating parameters and buffers; the class itself is patched, not subclassed, so a task's
`super(Model, self).__init__()` still finds its own class), and `get_inputs()` returns its floating-point tensors
cast to DTYPE (integer and bool inputs as they were). `--set NAME=VALUE` also rebinds module-level constants after
the task's own definitions (get_inputs and get_init_inputs read them when called), for smaller shapes on a CPU;
a constant derived from another one at import (`bias_shape = (out_features,)`) must be set too.

Every variant is checked before it is written: it is imported and run on PyTorch's meta device (shapes and
dtypes, no memory), and its floating-point outputs must be DTYPE; a task whose forward mixes dtypes once
cast (a tensor made in fp32 inside its forward) is reported and skipped. Generators and rules never read these
files' names: they are data, derived from the development set (`../shared/kernelbench-dev`, KernelBench at
commit 423217d, MIT license), for measuring hiera at bf16.

    python scripts/make_precision_variants.py SRC_DIR OUT_DIR [--dtype bf16|fp16] [--tasks level1/24_LogSoftmax ...]
        [--set batch_size=16 ...] [--suffix _bf16]
"""

from __future__ import annotations

import argparse
import ast
import importlib.util
import sys
from pathlib import Path

DTYPES = {"bf16": "bfloat16", "fp16": "float16"}

BLOCK = '''

# --- hiera: the {dtype} variant of this task (issue 43) ---------------------------------------------------------
# Written by scripts/make_precision_variants.py from {origin}
# (KernelBench, MIT license): the source above is the task's own, unchanged; this block casts its parameters,
# buffers and floating-point inputs to torch.{dtype}.{sets}
_hiera_dtype = torch.{dtype}
_hiera_init = Model.__init__


def _hiera_cast_init(self, *args, **kwargs):
    _hiera_init(self, *args, **kwargs)
    self.to(_hiera_dtype)


Model.__init__ = _hiera_cast_init
_hiera_get_inputs = get_inputs


def get_inputs():
    return [x.to(_hiera_dtype) if isinstance(x, torch.Tensor) and x.is_floating_point() else x
            for x in _hiera_get_inputs()]
'''


def variant_source(src: str, origin: str, dtype: str, sets: dict[str, str]) -> str:
    if "import torch\n" not in src and not src.startswith("import torch"):
        src = "import torch\n" + src
    lines = "".join(f"\n{k} = {v}" for k, v in sets.items())
    note = ("\n# Sizes set for a smaller run (the task's own are above):" + lines) if sets else ""
    return src.rstrip() + "\n" + BLOCK.format(dtype=dtype, origin=origin, sets=note)


def check(path: Path, dtype: str) -> str:
    """'' when the variant runs on the meta device with outputs of `dtype`, else what went wrong."""
    import torch

    spec = importlib.util.spec_from_file_location(f"hiera_variant_{abs(hash(str(path)))}", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
        with torch.device("meta"), torch.no_grad():
            model = module.Model(*module.get_init_inputs())
            out = model(*module.get_inputs())
    except Exception as e:  # a task is user code: anything it raises is the finding
        return f"{type(e).__name__}: {str(e)[:200]}"
    outs = list(out) if isinstance(out, (tuple, list)) else [out]
    want = getattr(torch, dtype)
    # Integer and bool outputs (an argmax) are compared exactly at any precision; every floating one is DTYPE.
    bad = [str(getattr(o, "dtype", type(o).__name__)) for o in outs
           if not isinstance(o, torch.Tensor) or (o.is_floating_point() and o.dtype != want)]
    return f"outputs of {', '.join(bad)}, not {dtype}" if bad else ""


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("src", type=Path, help="a folder of tasks (searched recursively), e.g. ../shared/kernelbench-dev")
    p.add_argument("out", type=Path, help="where the variants go (the same sub-folders)")
    p.add_argument("--dtype", choices=sorted(DTYPES), default="bf16")
    p.add_argument("--tasks", nargs="*", default=None, help="paths below SRC without .py (default: every task)")
    p.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                   help="rebind a module-level constant after the task's own (a Python expression)")
    p.add_argument("--suffix", default="", help="added to each file's stem (default: none)")
    args = p.parse_args(argv)
    dtype = DTYPES[args.dtype]
    sets: dict[str, str] = {}
    for item in args.set:
        name, _, value = item.partition("=")
        if not name.isidentifier() or not value:
            p.error(f"--set {item}: give NAME=VALUE")
        ast.parse(value, mode="eval")
        sets[name] = value
    files = sorted(args.src.rglob("*.py")) if args.tasks is None else [args.src / f"{t}.py" for t in args.tasks]
    written = skipped = 0
    for f in files:
        rel = f.relative_to(args.src)
        if not f.is_file():
            print(f"missing: {rel}", file=sys.stderr)
            skipped += 1
            continue
        out = args.out / rel.with_name(f"{rel.stem}{args.suffix}.py")
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(variant_source(f.read_text(), f"{args.src.name}/{rel}", dtype, sets))
        why = check(out, dtype)
        if why:
            out.unlink()
            print(f"skipped {rel}: {why}", file=sys.stderr)
            skipped += 1
            continue
        print(f"wrote {out}")
        written += 1
    print(f"{written} variant(s) written, {skipped} skipped", file=sys.stderr)
    return 0 if written else 1


if __name__ == "__main__":
    sys.exit(main())
