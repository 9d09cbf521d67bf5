"""Call a compiled candidate's `hiera_forward` (the contract's C ABI) on torch tensors, via ctypes.

Loaded only inside evaluation workers: the library is untrusted code.
"""

from __future__ import annotations

import ctypes
from collections.abc import Mapping, Sequence
from typing import Any

import torch

from engine.evaluate.wire import GENERATED_CODES, HieraTensor, forward_argtypes, tensor_view


def view_of(t: torch.Tensor) -> HieraTensor:
    return tensor_view(t.data_ptr(), tuple(t.shape), t.stride())


class NativeError(RuntimeError):
    pass


_DTYPES = {"float32": torch.float32, "float64": torch.float64, "int64": torch.int64, "int32": torch.int32,
           "float16": torch.float16, "bfloat16": torch.bfloat16, "bool": torch.bool, "uint8": torch.uint8,
           "int8": torch.int8}


class NativeForward:
    """Callable: (inputs, state by name, scalars by name) -> output tensor or tuple, per the contract."""

    def __init__(self, library_path: str, contract: Mapping[str, Any]):
        self.lib = ctypes.CDLL(str(library_path), mode=ctypes.RTLD_LOCAL)
        self.contract = contract
        self.fn = self.lib.hiera_forward
        self.fn.restype = ctypes.c_int
        self.fn.argtypes = forward_argtypes(dict(contract))
        self.peek_error = getattr(self.lib, "hiera_peek_last_error", None)
        if self.peek_error is not None:
            self.peek_error.restype = ctypes.c_int
            self.error_string = self.lib.hiera_error_string
            self.error_string.restype = ctypes.c_char_p
            self.error_string.argtypes = [ctypes.c_int]

    def __call__(self, inputs: Sequence[Any], state: Mapping[str, torch.Tensor],
                 scalars: Mapping[str, Any]) -> torch.Tensor | tuple[torch.Tensor, ...]:
        it = iter(inputs)
        values: list[Any] = []
        keep: list[torch.Tensor] = []  # contiguous copies must outlive the call
        device = None
        for a in self.contract["args"]:
            if a["role"] == "input":
                v = next(it)
            elif a["role"] in ("parameter", "buffer"):
                v = state[a["name"]]
            else:
                v = scalars[a["name"]]
            if a["tensor"]:
                t = v.contiguous()
                keep.append(t)
                device = device or t.device
                values.append(ctypes.byref(view_of(t)))
            else:
                values.append(float(v) if a["dtype"] == "float64" else int(v))
        device = device or torch.device("cpu")
        outs = [torch.empty(o["shape"], dtype=_DTYPES[o["dtype"]], device=device)
                for o in self.contract["outputs"]]
        values += [ctypes.byref(view_of(o)) for o in outs]
        stream = torch.cuda.current_stream(device).cuda_stream if device.type == "cuda" else None
        values.append(stream)
        rc = self.fn(*values)
        if self.peek_error is not None:
            err = self.peek_error()
            if err != 0:
                raise NativeError(f"CUDA error after hiera_forward: {self.error_string(err).decode()}")
        if rc != 0:
            what = GENERATED_CODES.get(rc)
            raise NativeError(f"hiera_forward returned {rc} (non-zero means failure" +
                              (f"; from hiera's generated code, {rc} means: {what})" if what else ")"))
        return tuple(outs) if self.contract["output_is_tuple"] else outs[0]
