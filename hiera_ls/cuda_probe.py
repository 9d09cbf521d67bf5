"""Whether the engine's interpreter sees a CUDA device: asked once, in a subprocess (the server never imports
torch), and cached for the server's life."""

from __future__ import annotations

import asyncio
import os

from hiera_ls.engine_command import engine_python


class CudaProbe:
    def __init__(self) -> None:
        self._result: tuple[bool, str] | None = None
        self._lock = asyncio.Lock()

    @property
    def known(self) -> bool | None:
        """The answer once asked (None before)."""
        return None if self._result is None else self._result[0]

    async def check(self) -> tuple[bool, str]:
        """(available, detail) where detail names the interpreter and any error."""
        async with self._lock:
            if self._result is None:
                self._result = await self._ask()
            return self._result

    async def _ask(self) -> tuple[bool, str]:
        if os.environ.get("HIERA_LS_ASSUME_CUDA") == "1":  # tests that run a fake engine as if on a GPU
            return True, "assumed by HIERA_LS_ASSUME_CUDA=1"
        py = engine_python()
        try:
            proc = await asyncio.create_subprocess_exec(
                py, "-c", "import torch; print(torch.cuda.is_available())",
                stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE, stdin=asyncio.subprocess.DEVNULL)
            out, err = await asyncio.wait_for(proc.communicate(), timeout=120)
        except (OSError, asyncio.TimeoutError) as e:
            return False, f"{py} could not be asked ({type(e).__name__}: {e})"
        if proc.returncode != 0:
            tail = err.decode(errors="replace").strip().splitlines()[-1:] or ["(no output)"]
            return False, f"{py} cannot import torch: {tail[0]}"
        ok = out.decode().strip().endswith("True")
        return ok, f"torch.cuda.is_available() is {ok} in {py}"
