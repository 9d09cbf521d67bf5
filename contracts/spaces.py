"""The check that a candidate's source stays inside one of the three nested implementation spaces.

pure_cuda ⊂ cuda_libraries ⊂ libraries_pytorch. A candidate declared (or required) to be in a space may
use nothing from a larger one; a violation is an invalid outcome naming the offending line.

The check is static and deliberately conservative: it reads the source as text with comments and string
literals blanked out (so a library named in a comment is not a violation), and for Python candidates it
walks the AST of the module. It can be fooled by a determined adversary (e.g. `getattr(torch, "mat" +
"mul")`); the verifier, not this check, is what guards correctness.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass

# The spaces themselves live in the shared vocabulary; engine/evaluate imports Space from here too.
from contracts.vocabulary import Space


@dataclass(frozen=True)
class Violation:
    line: int  # 1-based line in the candidate's source
    text: str  # the offending line, stripped
    what: str  # what was used
    needs: Space  # the smallest space that allows it

    def describe(self, space: Space) -> str:
        return (
            f"line {self.line}: {self.what} is not allowed in {space.value} "
            f"(needs {self.needs.value}): {self.text}"
        )


# --- C++/CUDA sources -------------------------------------------------------------------------------

# Library families allowed from cuda_libraries upward.
_LIBRARY_PATTERNS: list[tuple[str, str]] = [
    (r"#\s*include\s*[<\"](cublas|cublasLt|cublas_v2)[^>\"]*[>\"]", "a cuBLAS header"),
    (r"#\s*include\s*[<\"]cudnn[^>\"]*[>\"]", "a cuDNN header"),
    (r"#\s*include\s*[<\"](cutlass|cute)/[^>\"]*[>\"]", "a CUTLASS header"),
    (r"#\s*include\s*[<\"]cub/[^>\"]*[>\"]", "a CUB header"),
    (r"#\s*include\s*[<\"]thrust/[^>\"]*[>\"]", "a Thrust header"),
    (r"\bcublas(Lt)?[A-Z]\w*\s*\(", "a cuBLAS call"),
    (r"\bcudnn[A-Z]\w*\s*\(", "a cuDNN call"),
    (r"\bcutlass::", "CUTLASS"),
    (r"\bcute::", "CuTe"),
    (r"\bcub::", "CUB"),
    (r"\bthrust::", "Thrust"),
    # A library looked up at run time by name: the names are strings, so no header or call above shows it.
    # (The pure CUDA runner also masks CUDA's library folders and checks what was loaded; this names it.)
    (r"#\s*include\s*[<\"]dlfcn\.h[>\"]", "dlfcn.h (loading libraries at run time)"),
    (r"\bdl(open|mopen|sym|vsym)\s*\(", "a library loaded at run time (dlopen/dlsym)"),
]

# PyTorch/ATen from C++: allowed only in libraries_pytorch.
_TORCH_PATTERNS: list[tuple[str, str]] = [
    (r"#\s*include\s*[<\"](torch|ATen|c10)/[^>\"]*[>\"]", "a PyTorch/ATen header"),
    (r"\b(at|torch)::(?!Tensor\b)\w+", "an ATen/PyTorch operator"),
]

_COMMENT_OR_STRING = re.compile(
    r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'',
    re.DOTALL,
)


def _blank_comments_and_strings(src: str) -> str:
    """Replace comments and string literals by spaces, keeping newlines so line numbers survive.

    #include lines keep their quoted header name: an include is code, not a string.
    """

    def keep_newlines(m: re.Match[str]) -> str:
        s = m.group(0)
        line_start = src.rfind("\n", 0, m.start()) + 1
        if s.startswith('"') and re.match(r"\s*#\s*include\s*$", src[line_start : m.start()]):
            return s
        return "".join("\n" if c == "\n" else " " for c in s)

    return _COMMENT_OR_STRING.sub(keep_newlines, src)


def check_native_source(src: str, space: Space) -> list[Violation]:
    """Violations of `space` in a C++/CUDA source (the contract's cuda_source.cu or CPU C++ file)."""
    code = _blank_comments_and_strings(src)
    original = src.splitlines()
    found: list[Violation] = []
    rules: list[tuple[str, str, Space]] = []
    if space.rank < Space.CUDA_LIBRARIES.rank:
        rules += [(p, w, Space.CUDA_LIBRARIES) for p, w in _LIBRARY_PATTERNS]
    if space.rank < Space.LIBRARIES_PYTORCH.rank:
        rules += [(p, w, Space.LIBRARIES_PYTORCH) for p, w in _TORCH_PATTERNS]
    for lineno, line in enumerate(code.splitlines(), start=1):
        for pattern, what, needs in rules:
            if re.search(pattern, line):
                text = original[lineno - 1].strip() if lineno - 1 < len(original) else line.strip()
                found.append(Violation(lineno, text, what, needs))
                break
    return found


# --- Python ModelNew candidates ---------------------------------------------------------------------

# Calls a pure-CUDA or CUDA-library ModelNew may make from Python: allocation, metadata and plumbing.
_ALLOWED_TORCH_CALLS = {
    "empty", "empty_like", "empty_strided", "zeros", "zeros_like", "ones", "ones_like", "full",
    "full_like", "tensor", "as_tensor", "from_numpy", "device", "Size", "manual_seed", "no_grad",
    "inference_mode", "is_tensor", "get_default_dtype", "set_grad_enabled",
}
_ALLOWED_TENSOR_METHODS = {
    "contiguous", "view", "reshape", "size", "dim", "numel", "stride", "data_ptr", "is_contiguous",
    "to", "cuda", "cpu", "float", "t", "transpose", "permute", "unsqueeze", "squeeze", "flatten",
    "expand", "narrow", "element_size", "new_empty", "new_zeros", "detach", "item", "storage_offset",
    "type", "__len__",
    # plain Python containers (a dict of parameters, a list of outputs) are not tensor compute
    "update", "items", "keys", "values", "get", "append", "extend", "pop", "setdefault",
}
# Module namespaces whose calls are compute (torch.matmul, F.gelu, torch.nn.functional.*, torch.ops.*).
_TORCH_ROOTS = {"torch", "F", "nn"}


def _dotted(node: ast.AST) -> str | None:
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return ".".join(reversed(parts))
    return None


def _modelnew_forward_nodes(tree: ast.Module) -> list[ast.AST]:
    """The statements that run at call time: ModelNew.forward and module-level helper functions."""
    nodes: list[ast.AST] = []
    for stmt in tree.body:
        if isinstance(stmt, ast.ClassDef) and stmt.name == "ModelNew":
            nodes += [f for f in stmt.body if isinstance(f, ast.FunctionDef) and f.name != "__init__"]
        elif isinstance(stmt, ast.FunctionDef) and stmt.name not in ("get_inputs", "get_init_inputs"):
            nodes.append(stmt)
    return nodes


def _layer_attributes(tree: ast.Module) -> dict[str, str]:
    """Attributes of ModelNew that hold nn layers: `self.fc = nn.Linear(...)` -> {"fc": "nn.Linear"}."""
    layers: dict[str, str] = {}
    for cls in (s for s in tree.body if isinstance(s, ast.ClassDef) and s.name == "ModelNew"):
        for node in ast.walk(cls):
            if not (isinstance(node, ast.Assign) and isinstance(node.value, ast.Call)):
                continue
            ctor = _dotted(node.value.func) or ""
            if ctor.split(".")[0] not in ("nn", "torch"):
                continue
            for t in node.targets:
                if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == "self":
                    layers[t.attr] = ctor
    return layers


def check_python_source(src: str, space: Space) -> list[Violation]:
    """Violations of `space` in a whole-ModelNew Python candidate.

    In pure_cuda and cuda_libraries the forward may only allocate, reshape and call compiled code; any
    PyTorch operator (torch.*, F.*, nn layers called in forward, tensor compute methods, `@`) needs
    libraries_pytorch. Inline CUDA/C++ strings are checked as native sources.
    """
    if space is Space.LIBRARIES_PYTORCH:
        return []
    try:
        tree = ast.parse(src)
    except SyntaxError as e:  # reported by the loader with its own message; nothing to check here
        return [Violation(e.lineno or 1, (e.text or "").strip(), "a syntax error", space)]
    lines = src.splitlines()
    found: list[Violation] = []

    def add(node: ast.AST, what: str) -> None:
        ln = getattr(node, "lineno", 1)
        found.append(Violation(ln, lines[ln - 1].strip() if ln - 1 < len(lines) else "", what,
                               Space.LIBRARIES_PYTORCH))

    # Compiled sources embedded as string constants (load_inline) must respect the space too.
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and "__global__" in node.value:
            base = node.lineno - 1
            for v in check_native_source(node.value, space):
                found.append(Violation(base + v.line, v.text, v.what, v.needs))

    module_attrs = {
        t.id for stmt in tree.body if isinstance(stmt, ast.Assign) for t in stmt.targets
        if isinstance(t, ast.Name)
    }
    layers = _layer_attributes(tree)
    for fn in _modelnew_forward_nodes(tree):
        for node in ast.walk(fn):
            if isinstance(node, ast.BinOp) and isinstance(node.op, ast.MatMult):
                add(node, "the @ operator (a PyTorch matmul)")
            if not isinstance(node, ast.Call):
                continue
            name = _dotted(node.func)
            if name is None:
                continue
            parts = name.split(".")
            leaf = parts[-1]
            if parts[0] in _TORCH_ROOTS and len(parts) > 1:
                if parts[1] != "cuda" and leaf not in _ALLOWED_TORCH_CALLS:
                    add(node, f"the PyTorch call {name}()")
            elif parts[0] == "self" and len(parts) >= 2 and parts[1] in layers:
                if len(parts) == 2 or leaf == "forward":
                    add(node, f"the PyTorch layer self.{parts[1]} ({layers[parts[1]]})")
            elif parts[0] == "self" or parts[0] in module_attrs:
                continue  # compiled extension functions (load_inline results) and plain helpers
            elif len(parts) > 1 and leaf not in _ALLOWED_TENSOR_METHODS:
                add(node, f"the tensor method .{leaf}()")
    return found


def check_source(src: str, space: Space, *, python: bool) -> list[Violation]:
    return check_python_source(src, space) if python else check_native_source(src, space)


def smallest_space(src: str, *, python: bool) -> Space:
    """The smallest space a source fits in (used to label imported candidates)."""
    for space in (Space.PURE_CUDA, Space.CUDA_LIBRARIES):
        if not check_source(src, space, python=python):
            return space
    return Space.LIBRARIES_PYTORCH
