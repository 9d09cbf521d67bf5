"""Why a large memory-bound forward reads half its bandwidth in the checker (H100, 2026-12-07, bf16 21_Sigmoid at
4096 x 393216: the checker's events gave 4.60 ms a call, 1.4 TB/s, where Nsight Compute timed the same two
kernels at 1.05 ms each, 3.05 TB/s, and the same checker gave 3.06 TB/s at batch 2605; hiera's own kernel showed
the same cliff). Each row times one operation in one plain process with the checker's procedure
(timing.time_call with its L2 flush), 20 calls, and says the rate it moved its bytes at:

  sigmoid    torch.sigmoid(x), a fresh output each call (as the task's forward)
  sigmoid_out torch.sigmoid(x, out=y), the output made once (the allocator out of the picture)
  copy       y.copy_(x)
  sigmoid_perturbed  torch.sigmoid(buf), buf written before each call from x with the checker's per-element noise

at rows 2605 (2 GB of bf16 input: under 2**31 bytes) and 4096 (3.2 GB), alone and with FILL GiB of other tensors
allocated beside them (the checker's timing pool and copies fill the card), and (on a GPU) between buffers
allocated as the checker's exchange allocates them (exchange_buffers()) and after the card's memory was left in
scattered pieces (fragmented()). H100, 2026-12-07: no cliff in any of the first rows; the last two kinds not run
yet (BENCHMARKS.md). From the repo root on the device machine:
  python3 scripts/big_tensor_rate.py cuda:0 [FILL_GIB] > $OUT/big_tensor_rate.json
"""

from __future__ import annotations

import json
import os
import statistics
import sys

import torch

from engine.evaluate import timing
from engine.evaluate.perturb import Perturber

COLS = int(os.environ.get("HIERA_RATE_COLS", "393216"))  # smaller for a smoke test on the CPU
CALLS = 20


def rate(label: str, fn, moved: int, dev: torch.device, flusher: timing.CacheFlusher, prep=None
         ) -> dict[str, object]:
    for _ in range(3):
        fn()
    ms = []
    for _ in range(CALLS):
        if prep is not None:
            prep()  # outside the timed call, as the checker writes each call's inputs
        ms.append(timing.time_call(fn, dev, flusher.flush)[0])
    med = statistics.median(ms)
    row = {"what": label, "median_ms": round(med, 4), "min_ms": round(min(ms), 4),
           "tb_per_s": round(moved / med / 1e9, 3)}
    print(row, file=sys.stderr)
    return row


def exchange_buffers(dev: torch.device, flusher: timing.CacheFlusher) -> list[dict[str, object]]:
    """sigmoid and a copy between buffers allocated as the checker's exchange allocates them (each its own
    cuMemCreate allocation, mapped by cuMemMap: engine/evaluate/cudadrv.py), which is what a candidate in the
    runner reads and writes."""
    from engine.evaluate import cudadrv

    out: list[dict[str, object]] = []
    try:
        drv = cudadrv.Driver(dev.index or 0)
    except Exception as e:
        return [{"config": "exchange buffers", "error": f"{type(e).__name__}: {e}"[:200]}]
    for rows in (2605, 4096):
        tag = f"rows {rows} bfloat16 exchange buffers (cuMemCreate)"
        allocs = []
        try:
            nbytes = rows * COLS * 2
            views = []
            for _ in range(2):
                ptr, size, fd, handle = drv.shareable_alloc(nbytes)
                os.close(fd)
                allocs.append((ptr, size, handle))
                raw = torch.as_tensor(cudadrv.DeviceArray(ptr, nbytes), device=dev)
                views.append(raw.view(torch.bfloat16).view(rows, COLS))
            x, y = views
            x.copy_(torch.rand(rows, COLS, device=dev, dtype=torch.bfloat16))
            moved = 2 * nbytes
            out.append({"config": tag, **rate("sigmoid_out", lambda x=x, y=y: torch.sigmoid(x, out=y), moved, dev,
                                              flusher)})
            out.append({"config": tag, **rate("sigmoid", lambda x=x: torch.sigmoid(x), moved, dev, flusher)})
            out.append({"config": tag, **rate("copy", lambda x=x, y=y: y.copy_(x), moved, dev, flusher)})
            del x, y, views, raw
        except Exception as e:
            out.append({"config": tag, "error": f"{type(e).__name__}: {e}"[:200]})
        torch.cuda.synchronize(dev)
        torch.cuda.empty_cache()
        for ptr, size, handle in allocs:
            drv.shareable_free(ptr, size, handle)
    return out


def fragmented(dev: torch.device, flusher: timing.CacheFlusher) -> list[dict[str, object]]:
    """The same rows after the card's memory was filled with 64 MiB blocks and every second one given back to the
    driver, as a checker that has made and freed many input sets leaves it: a large tensor is then made of
    scattered pieces (the other suspect for the checker's cliff besides its exchange buffers: page size and the
    TLB's reach on a multi-GB stream)."""
    out: list[dict[str, object]] = []
    free, _ = torch.cuda.mem_get_info(dev)
    blocks = [torch.empty(64 << 20, dtype=torch.uint8, device=dev) for _ in range(int((free - (2 << 30)) >> 26))]
    del blocks[::2]
    torch.cuda.empty_cache()
    for rows in (2605, 4096):
        tag = f"rows {rows} bfloat16 fragmented ({len(blocks)} x 64 MiB held, as many freed)"
        try:
            x = torch.rand(rows, COLS, device=dev, dtype=torch.bfloat16)
            y = torch.empty_like(x)
            moved = 2 * x.numel() * x.element_size()
            out.append({"config": tag, **rate("sigmoid", lambda x=x: torch.sigmoid(x), moved, dev, flusher)})
            out.append({"config": tag, **rate("copy", lambda x=x, y=y: y.copy_(x), moved, dev, flusher)})
            del x, y
        except torch.cuda.OutOfMemoryError as e:
            out.append({"config": tag, "error": str(e)[:200]})
        torch.cuda.empty_cache()
    del blocks
    torch.cuda.empty_cache()
    return out


def main() -> None:
    dev = torch.device(sys.argv[1])
    fill_gib = float(sys.argv[2]) if len(sys.argv) > 2 else 40.0
    flusher = timing.CacheFlusher(dev)
    rows_out = []
    for fill in (0.0, fill_gib):
        filler = [torch.empty(1 << 30, dtype=torch.uint8, device=dev) for _ in range(int(fill))]
        for rows in (2605, 4096):
            for dtype in (torch.bfloat16, torch.float32):
                x = torch.rand(rows, COLS, device=dev, dtype=dtype)
                y = torch.empty_like(x)
                moved = 2 * x.numel() * x.element_size()
                tag = f"rows {rows} {str(dtype).split('.')[-1]} fill {fill:g} GiB"
                try:
                    rows_out.append({"config": tag, **rate("sigmoid", lambda x=x: torch.sigmoid(x), moved, dev,
                                                             flusher)})
                    rows_out.append({"config": tag, **rate("sigmoid_out", lambda x=x, y=y: torch.sigmoid(x, out=y),
                                                             moved, dev, flusher)})
                    rows_out.append({"config": tag, **rate("copy", lambda x=x, y=y: y.copy_(x), moved, dev,
                                                             flusher)})
                    # The checker's own procedure: each call's input written from the pool set with the
                    # per-element noise (engine/evaluate/perturb.py, chunked temporaries) into a buffer.
                    buf = x.clone()
                    pert = Perturber([x], dev, lambda _inputs: True)
                    rows_out.append({"config": tag, **rate(
                        "sigmoid_perturbed", lambda b=buf: torch.sigmoid(b), moved, dev, flusher,
                        prep=lambda b=buf, x=x, pert=pert: pert.write([b], [x]))})
                    del buf, pert
                except torch.cuda.OutOfMemoryError as e:
                    rows_out.append({"config": tag, "error": str(e)[:200]})
                del x, y
                torch.cuda.empty_cache()
        del filler
        torch.cuda.empty_cache()
    if dev.type == "cuda":
        rows_out += exchange_buffers(dev, flusher)
        rows_out += fragmented(dev, flusher)
    name = torch.cuda.get_device_name(dev) if dev.type == "cuda" else "cpu"
    print(json.dumps({"device": name, "rows": rows_out}, indent=1))


if __name__ == "__main__":
    main()
