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


# Standard-library modules of plumbing (paths, files, hashes, processes, clocks, encodings): none of their functions
# computes on a tensor, so a call through a name bound to one of them (os.path.join, hashlib.sha256, subprocess.run)
# is not a tensor method. Not here: operator, functools, math, builtins, importlib, copy (their functions apply a
# tensor's own operators, or reach any module).
_PLUMBING_MODULES = frozenset({"base64", "hashlib", "io", "json", "os", "os.path", "pathlib", "shutil", "subprocess",
                               "sys", "tempfile", "time", "warnings"})
# A file object's methods (a name bound by `with open(...) as f`, `open` being the builtin).
_FILE_CLASSES = ("BufferedReader", "BufferedWriter", "BufferedRandom", "TextIOWrapper")
# Where any of these appears (a name, an attribute other than the instance's own, an imported name), no name is
# trusted as plumbing: each can rebind a name, or change what a module's attribute is, out of this check's sight
# (setattr(os.path, "join", torch.add); sys.modules["hashlib"] = ...; a module's __dict__).
_OUT_OF_SIGHT = frozenset({"setattr", "delattr", "getattr", "exec", "eval", "compile", "globals", "locals", "vars",
                           "__import__", "__builtins__", "builtins", "importlib", "import_module", "__dict__",
                           "modules", "__setattr__", "__delattr__", "__getattribute__", "__class__"})


def _root(node: ast.AST) -> str | None:
    """The name an attribute or subscript chain starts from (`os` for os.path.join, sys.modules["x"])."""
    while isinstance(node, (ast.Attribute, ast.Subscript)):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def _own(node: ast.Attribute) -> bool:
    """`self.name`: an attribute of the instance itself, no deeper (self.mod.join = ... changes whatever self.mod
    holds, a module as well)."""
    return isinstance(node.value, ast.Name) and node.value.id == "self"


def _bindings(tree: ast.Module) -> dict[str, list[ast.AST]]:
    """Every node that binds each name anywhere in the module, in any scope: assignments and other stores, deletes,
    parameters, imports, definitions, `except ... as`, `with ... as` targets, match captures, global/nonlocal."""
    found: dict[str, list[ast.AST]] = {}

    def bind(name: str | None, node: ast.AST) -> None:
        if name:
            found.setdefault(name, []).append(node)

    for n in ast.walk(tree):
        if isinstance(n, ast.Name) and isinstance(n.ctx, (ast.Store, ast.Del)):
            bind(n.id, n)
        elif isinstance(n, ast.arg):
            bind(n.arg, n)
        elif isinstance(n, (ast.Import, ast.ImportFrom)):
            for a in n.names:
                bind(a.asname or a.name.split(".")[0], n)
        elif isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.ExceptHandler, ast.MatchAs,
                            ast.MatchStar)):
            bind(n.name, n)
        elif isinstance(n, ast.MatchMapping):
            bind(n.rest, n)
        elif isinstance(n, (ast.Global, ast.Nonlocal)):
            for name in n.names:
                bind(name, n)
    return found


def _rebinds_out_of_sight(tree: ast.Module, imported: set[str]) -> bool:
    """Whether the module can rebind a name or change a module's attributes where _bindings does not see it: a star
    import, setattr/exec/vars/globals/getattr and the like, a module's __dict__ or sys.modules, a store into an
    attribute other than the instance's own (os.path.join = ..., self.mod.join = ...) or into an imported name's
    items."""
    for n in ast.walk(tree):
        if isinstance(n, (ast.Import, ast.ImportFrom)) and any(
                a.name == "*" or {a.name, a.asname} & _OUT_OF_SIGHT for a in n.names):
            return True
        if isinstance(n, ast.Name) and n.id in _OUT_OF_SIGHT:
            return True
        if isinstance(n, ast.Attribute) and (n.attr in _OUT_OF_SIGHT or isinstance(n.ctx, (ast.Store, ast.Del))
                                             ) and not _own(n):
            return True
        if isinstance(n, ast.Subscript) and isinstance(n.ctx, (ast.Store, ast.Del)) and _root(n) in imported:
            return True
    return False


def _plumbing_of(binding: ast.AST, name: str, files: set[int]) -> object | None:
    """What one binding of `name` makes it, where that is plumbing: the real module (or the name imported from it)
    for an import of a _PLUMBING_MODULES module, the file types for a `with open(...) as name` target (`files`, the
    ids of those targets); else None."""
    import importlib
    import io

    if isinstance(binding, ast.Import):
        [alias] = [a for a in binding.names if (a.asname or a.name.split(".")[0]) == name][:1] or [None]
        module = alias and (alias.name if alias.asname else alias.name.split(".")[0])
        return importlib.import_module(module) if module in _PLUMBING_MODULES else None
    if isinstance(binding, ast.ImportFrom) and binding.level == 0 and binding.module in _PLUMBING_MODULES:
        [alias] = [a for a in binding.names if (a.asname or a.name) == name][:1] or [None]
        if alias is None or alias.name.startswith("_"):
            return None
        if f"{binding.module}.{alias.name}" in _PLUMBING_MODULES:
            return importlib.import_module(f"{binding.module}.{alias.name}")
        return getattr(importlib.import_module(binding.module), alias.name, None)
    if isinstance(binding, ast.Name) and id(binding) in files:
        return tuple(getattr(io, c) for c in _FILE_CLASSES)
    return None


def _plumbing_names(tree: ast.Module) -> dict[str, object]:
    """Names that hold plumbing, not tensors, wherever they are used: every binding of the name, anywhere in the
    module, makes it the same plumbing (an import of a _PLUMBING_MODULES module, or `with open(...) as name` with
    `open` never rebound). None at all where the module can rebind names or change modules out of this check's
    sight (_rebinds_out_of_sight). With _resolves, a call counts as plumbing only through an attribute the real
    module (or file type) has: `import torch as os`, `os = torch`, a parameter named os, os.matmul = torch.matmul
    all leave os.matmul(x, y) a violation."""
    bindings = _bindings(tree)
    imported = {name for name, nodes in bindings.items()
                if any(isinstance(n, (ast.Import, ast.ImportFrom)) for n in nodes)}
    if _rebinds_out_of_sight(tree, imported):
        return {}
    # `with open(...) as name` targets, `open` being the builtin (never bound in the module)
    files = {id(item.optional_vars) for w in ast.walk(tree) if isinstance(w, (ast.With, ast.AsyncWith))
             for item in w.items if "open" not in bindings and isinstance(item.context_expr, ast.Call)
             and isinstance(item.context_expr.func, ast.Name) and item.context_expr.func.id == "open"}
    trusted: dict[str, object] = {}
    for name, nodes in bindings.items():
        held = [_plumbing_of(n, name, files) for n in nodes]
        if held[0] is not None and all(h is held[0] or h == held[0] for h in held):
            trusted[name] = held[0]
    return trusted


def _resolves(held: object, attrs: list[str]) -> bool:
    """Whether the chain of attributes `attrs` exists on the real plumbing `held` (a module, a name from one, or the
    file types): an attribute a candidate added or a dunder never counts."""
    if not attrs or any(a.startswith("__") for a in attrs):
        return False
    if isinstance(held, tuple):  # a file object: one method of one of the file types
        return len(attrs) == 1 and any(hasattr(c, attrs[0]) for c in held)
    for a in attrs:
        if not hasattr(held, a):
            return False
        held = getattr(held, a)
    return True


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
    plumbing = _plumbing_names(tree)
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
            elif parts[0] in plumbing and _resolves(plumbing[parts[0]], parts[1:]):
                continue  # a standard-library module's function or a file's method (os.path.join, f.read)
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
