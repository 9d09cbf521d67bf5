"""Check KernelBench-format task files: they import, build, trace with torch.fx, run, and give finite fp32 outputs.

Usage:
    python bench/check_tasks.py                      # every task under bench/ and examples/, on the CPU
    python bench/check_tasks.py bench/level1 examples/softmax_rows.py
    python bench/check_tasks.py --device meta bench  # shapes and bytes only, no arithmetic
    python bench/check_tasks.py --device cuda bench  # eager time (CUDA events) and peak GPU memory

Each task runs in its own subprocess. On the CPU a task that does not finish within --timeout seconds, or
asks for more memory than the machine has (an fp64 convolution's im2col on a large grid), is run again on the
"meta" device (shapes only), and the table says so. The exit status is 1 when any task fails.

A task file defines `class Model(nn.Module)`, `get_inputs()` (CPU tensors and possibly Python scalars) and
`get_init_inputs()` (constructor arguments), plus a one-line module docstring. The checker builds
`Model(*get_init_inputs())` after `torch.manual_seed(0)`, draws inputs after `torch.manual_seed(1)`, runs
`forward` under `torch.no_grad()`, and also runs the `torch.fx.symbolic_trace` of the model on the same inputs
to confirm that the traced graph gives the same result.
"""
import argparse
import importlib.util
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

MARK = "@@CHECK_TASKS@@"
# Every floating tensor of a task (inputs, parameters, buffers, outputs) has one of these dtypes, the same one:
# float32 everywhere but bench/stencil, whose tasks are float64 throughout (the stencil case of the paper).
FLOAT_DTYPES = ("float32", "float64")
REPO = Path(__file__).resolve().parent.parent


# --------------------------------------------------------------------------------------------- worker side

def _load(path):
    name = "task_" + "".join(c if c.isalnum() else "_" for c in Path(path).stem)
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _flatten(out):
    if isinstance(out, (tuple, list)):
        return [t for o in out for t in _flatten(o)]
    return [out]


def _nbytes(t):
    return t.numel() * t.element_size()


def _shape(out):
    outs = _flatten(out)
    shapes = [tuple(o.shape) if hasattr(o, "shape") else type(o).__name__ for o in outs]
    return shapes[0] if len(shapes) == 1 else shapes


def _same(a, b):
    import torch
    a, b = _flatten(a), _flatten(b)
    if len(a) != len(b):
        return False
    for x, y in zip(a, b):
        if isinstance(x, torch.Tensor) != isinstance(y, torch.Tensor):
            return False
        if not isinstance(x, torch.Tensor):
            if x != y:
                return False
        elif x.shape != y.shape or x.dtype != y.dtype:
            return False
        elif x.device.type != "meta":
            if x.is_floating_point():
                # loose enough for GEMM libraries that are not bitwise reproducible between calls
                if not torch.allclose(x, y, rtol=1e-4, atol=1e-4, equal_nan=True):
                    return False
            elif not torch.equal(x, y):
                return False
    return True


def work(path, device, repeat):
    import torch
    import torch.fx

    res = {"task": path, "device": device, "problems": []}
    problems = res["problems"]
    module = _load(path)
    doc = (module.__doc__ or "").strip()
    if not doc or "\n" in doc:
        problems.append("module docstring is missing or not one line")
    res["doc"] = doc
    for name in ("Model", "get_inputs", "get_init_inputs"):
        if not hasattr(module, name):
            raise RuntimeError(f"task defines no {name}")

    torch.manual_seed(0)
    init_args = list(module.get_init_inputs())
    model = module.Model(*init_args)
    if not isinstance(model, torch.nn.Module):
        raise RuntimeError("Model is not an nn.Module")

    try:
        traced = torch.fx.symbolic_trace(model)
        res["traces"] = True
        res["graph_nodes"] = len(traced.graph.nodes)
    except Exception as exc:
        traced = None
        res["traces"] = False
        res["trace_error"] = f"{type(exc).__name__}: {exc}"[:300]
        problems.append("torch.fx.symbolic_trace failed: " + res["trace_error"][:120])

    torch.manual_seed(1)
    inputs = list(module.get_inputs())
    float_dtypes = set()  # the floating dtypes of inputs, parameters, buffers and outputs: one of FLOAT_DTYPES
    for i, x in enumerate(inputs):
        if isinstance(x, torch.Tensor):
            if x.device.type != "cpu":
                problems.append(f"input {i} is not a CPU tensor")
            if x.is_floating_point():
                float_dtypes.add(x.dtype)
        elif not isinstance(x, (int, float, bool)):
            problems.append(f"input {i} is a {type(x).__name__}, neither a tensor nor a Python scalar")
    tensors = list(model.parameters()) + list(model.buffers())
    float_dtypes.update(t.dtype for t in tensors if t.is_floating_point())
    res["input_bytes"] = sum(_nbytes(x) for x in inputs if isinstance(x, torch.Tensor))
    res["param_bytes"] = sum(_nbytes(t) for t in tensors)

    def move(xs):
        return [x.to(device) if isinstance(x, torch.Tensor) else x for x in xs]

    if device == "cuda":
        torch.backends.cuda.matmul.allow_tf32 = False  # plain fp32 reference
        torch.backends.cudnn.allow_tf32 = False
        torch.cuda.reset_peak_memory_stats()
    model.to(device)
    if traced is not None:
        traced.to(device)
    inputs = move(inputs)

    with torch.no_grad():
        if device == "cuda":
            torch.cuda.synchronize()
            base = torch.cuda.memory_allocated()
            torch.cuda.reset_peak_memory_stats()
            t0 = time.perf_counter()
            out = model(*inputs)
            torch.cuda.synchronize()
            res["seconds"] = time.perf_counter() - t0
            res["peak_bytes"] = torch.cuda.max_memory_allocated()
            res["peak_extra_bytes"] = torch.cuda.max_memory_allocated() - base
            for _ in range(2):
                model(*inputs)
            start = [torch.cuda.Event(enable_timing=True) for _ in range(repeat)]
            stop = [torch.cuda.Event(enable_timing=True) for _ in range(repeat)]
            for a, b in zip(start, stop):
                a.record()
                model(*inputs)
                b.record()
            torch.cuda.synchronize()
            times = sorted(a.elapsed_time(b) for a, b in zip(start, stop))
            res["eager_ms"] = statistics.median(times)  # the usual median (contracts/verdict.py median is this)
            res["eager_ms_min"] = times[0]
        else:
            t0 = time.perf_counter()
            out = model(*inputs)
            res["seconds"] = time.perf_counter() - t0

        outs = _flatten(out)
        res["output_shape"] = str(_shape(out))
        res["output_bytes"] = sum(_nbytes(o) for o in outs if isinstance(o, torch.Tensor))
        for o in outs:
            if not isinstance(o, torch.Tensor):
                problems.append(f"output of type {type(o).__name__} is not a tensor")
                continue
            if o.is_floating_point():
                float_dtypes.add(o.dtype)
            if device != "meta" and o.is_floating_point() and not bool(torch.isfinite(o).all()):
                problems.append("output has NaN or Inf")
        if device != "meta":
            floats = [o for o in outs if isinstance(o, torch.Tensor) and o.is_floating_point()]
            res["output_std"] = float(torch.cat([o.flatten().double() for o in floats]).std()) if floats else None
            if res["output_std"] == 0 and max(o.numel() for o in floats) > 1:
                problems.append("output is constant")

        if traced is not None:
            res["trace_match"] = _same(out, traced(*inputs))
            if not res["trace_match"]:
                problems.append("traced module output differs from eager output")

    names = sorted(str(d).replace("torch.", "") for d in float_dtypes)
    res["dtype"] = names[0] if len(names) == 1 else ",".join(names)
    if len(names) > 1 or (names and names[0] not in FLOAT_DTYPES):
        problems.append(f"floating tensors are {', '.join(names)}: all float32, or all float64 (bench/stencil)")
    res["io_bytes"] = res["input_bytes"] + res["param_bytes"] + res["output_bytes"]
    res["ok"] = not problems
    return res


# --------------------------------------------------------------------------------------------- driver side

def find_tasks(paths):
    files = []
    for p in paths:
        p = Path(p)
        candidates = sorted(p.rglob("*.py")) if p.is_dir() else [p]
        for f in candidates:
            if f.resolve() == Path(__file__).resolve() or "__pycache__" in f.parts:
                continue
            try:
                text = f.read_text()
            except OSError:
                continue
            if "def get_inputs" in text and "class Model" in text:
                files.append(f)
    return files


def run_one(path, device, timeout, repeat):
    cmd = [sys.executable, __file__, "--worker", str(path), "--device", device, "--repeat", str(repeat)]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"task": str(path), "device": device, "ok": False, "timeout": True,
                "problems": [f"timed out after {timeout} s on {device}"]}
    for line in proc.stdout.splitlines():
        if line.startswith(MARK):
            return json.loads(line[len(MARK):])
    tail = (proc.stderr or proc.stdout).strip().splitlines()[-3:]
    problem = " | ".join(tail) or f"exit {proc.returncode}"
    return {"task": str(path), "device": device, "ok": False, "problems": [problem]}


def _mb(n):
    return "-" if n is None else f"{n / 1e6:,.1f}"


def _rel(p):
    try:
        return str(Path(p).resolve().relative_to(REPO))
    except ValueError:
        return str(p)


def print_table(results, device):
    cuda = device == "cuda"
    head = ["task", "device", "output shape", "first run s", "in+param+out MB", "traces", "status"]
    if cuda:
        head[3:3] = ["eager ms", "peak MB"]
    rows = []
    for r in results:
        row = [_rel(r["task"]), r.get("device", "-"), r.get("output_shape", "-"),
               "-" if "seconds" not in r else f"{r['seconds']:.3f}", _mb(r.get("io_bytes")),
               {True: "yes", False: "NO"}.get(r.get("traces"), "-"),
               "ok" if r.get("ok") else "FAIL: " + "; ".join(r.get("problems", []))]
        if cuda:
            row[3:3] = ["-" if "eager_ms" not in r else f"{r['eager_ms']:.3f}", _mb(r.get("peak_bytes"))]
        rows.append(row)
    widths = [max(len(str(x)) for x in col) for col in zip(head, *rows)]
    line = lambda cells: "  ".join(str(c).ljust(w) for c, w in zip(cells, widths)).rstrip()  # noqa: E731
    print(line(head))
    print(line(["-" * w for w in widths]))
    for row in rows:
        print(line(row))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("paths", nargs="*", help="task files or folders (default: bench/ and examples/)")
    ap.add_argument("--device", default="cpu", choices=["cpu", "meta", "cuda"])
    ap.add_argument("--timeout", type=float, default=60.0,
                    help="seconds per task before a CPU run is abandoned and redone on meta (default 60)")
    ap.add_argument("--repeat", type=int, default=10, help="timed repetitions on cuda (default 10)")
    ap.add_argument("--json", metavar="FILE", help="also write the results as JSON")
    ap.add_argument("--worker", metavar="FILE", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)

    if args.worker:
        try:
            res = work(args.worker, args.device, args.repeat)
        except Exception as exc:
            res = {"task": args.worker, "device": args.device, "ok": False,
                   "problems": [f"{type(exc).__name__}: {exc}"[:400]]}
        print(MARK + json.dumps(res), flush=True)
        return 0

    paths = args.paths or [REPO / "bench", REPO / "examples"]
    tasks = find_tasks(paths)
    if not tasks:
        print("no task files found", file=sys.stderr)
        return 2
    results = []
    for t in tasks:
        r = run_one(t, args.device, args.timeout, args.repeat)
        oom = any("can't allocate memory" in p or "out of memory" in p.lower() for p in r.get("problems", []))
        if (r.get("timeout") or oom) and args.device == "cpu":
            r = run_one(t, "meta", args.timeout, args.repeat)
            r.setdefault("problems", [])
        results.append(r)
        status = "ok" if r.get("ok") else "FAIL"
        print(f"[{len(results)}/{len(tasks)}] {_rel(t)}: {status}", file=sys.stderr, flush=True)
    print_table(results, args.device)
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1))
    failed = sum(not r.get("ok") for r in results)
    print(f"\n{len(results) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
