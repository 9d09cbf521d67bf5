"""Which classes of a Python file hiera can optimize, found by reading the source with `ast` (never importing it).

Two forms are optimizable:

* **KernelBench format** — module-level `class Model`, `def get_inputs()` and `def get_init_inputs()`.
* **Any `nn.Module` subclass with an inputs comment** on the class line or in the comment block directly above
  the class (above its decorators)::

      # hiera: inputs=make_inputs init=make_init
      class FusedBlock(nn.Module):
          ...

  `inputs=` names a module-level function returning the list of `forward()` arguments; `init=` (optional,
  default: no arguments) names one returning the constructor arguments. They play the roles of
  `get_inputs` and `get_init_inputs`.

Other `nn.Module` subclasses are listed as modules *without inputs*: the editor still offers the action on
their `class` line, and running it explains what to add.

A file that defines `ModelNew` is a result (hiera's or a KernelBench solution), not something to optimize.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from typing import Literal

Kind = Literal["kernelbench", "annotated", "no_inputs"]

_ANNOTATION = re.compile(r"#\s*hiera:\s*(?P<body>.*)$")
_PAIR = re.compile(r"(\w+)\s*=\s*(\S+)")
_IDENT = re.compile(r"^[A-Za-z_]\w*$")
# Cheap pre-filter: a file without any of these words cannot hold a module we care about.
_INTERESTING = re.compile(r"Module|get_inputs|hiera:")

ANNOTATION_HELP = ("add `# hiera: inputs=make_inputs init=make_init` on the line above the class, where "
                   "make_inputs() returns the list of forward() arguments and make_init() the constructor "
                   "arguments (or use the KernelBench format: class Model, get_inputs(), get_init_inputs())")


@dataclass(frozen=True)
class ModuleClass:
    name: str
    kind: Kind
    header_line: int  # 0-based: first decorator or the `class` line, where hover/code actions start
    class_line: int  # 0-based line of the `class` keyword
    name_col: int  # 0-based column of the class name
    end_line: int  # 0-based last line of the class body
    inputs_fn: str | None = None
    init_fn: str | None = None
    problem: str | None = None  # why it cannot be optimized as written; None when it can

    @property
    def optimizable(self) -> bool:
        return self.problem is None

    def contains(self, line: int) -> bool:
        return self.header_line <= line <= self.end_line

    def on_header(self, line: int) -> bool:
        return self.header_line <= line <= self.class_line

    def to_json(self) -> dict[str, object]:
        return {"className": self.name, "kind": self.kind, "line": self.class_line, "endLine": self.end_line,
                "inputs": self.inputs_fn, "init": self.init_fn, "optimizable": self.optimizable,
                "problem": self.problem}


@dataclass(frozen=True)
class PythonScan:
    modules: tuple[ModuleClass, ...]
    is_result: bool  # defines ModelNew
    syntax_error: str | None = None

    def at(self, line: int) -> ModuleClass | None:
        """The innermost-starting module class whose range holds `line`."""
        best = None
        for m in self.modules:
            if m.contains(line) and (best is None or m.header_line >= best.header_line):
                best = m
        return best

    def by_name(self, name: str) -> ModuleClass | None:
        return next((m for m in self.modules if m.name == name), None)


EMPTY = PythonScan((), False)


def _base_name(node: ast.expr) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Subscript):  # Generic[...]-style bases
        return _base_name(node.value)
    return ""


def _annotation(lines: list[str], cls: ast.ClassDef) -> tuple[dict[str, str], str | None] | None:
    """Keys of a `# hiera:` comment attached to the class, an error if malformed; None when there is none."""
    first = min([cls.lineno, *(d.lineno for d in cls.decorator_list)]) - 1
    candidates = [lines[cls.lineno - 1]] if cls.lineno - 1 < len(lines) else []
    i = first - 1
    while i >= 0 and lines[i].lstrip().startswith("#"):  # the contiguous comment block right above
        candidates.append(lines[i])
        i -= 1
    for text in candidates:
        m = _ANNOTATION.search(text)
        if not m:
            continue
        body = m.group("body").strip()
        pairs = dict(_PAIR.findall(body))
        unknown = sorted(set(pairs) - {"inputs", "init"})
        if unknown:
            return pairs, f"unknown key {unknown[0]!r} in `# hiera: {body}` (only inputs= and init= are read)"
        if "inputs" not in pairs:
            return pairs, f"`# hiera: {body}` names no inputs function (write `inputs=NAME`)"
        bad = [v for v in pairs.values() if not _IDENT.match(v)]
        if bad:
            return pairs, f"{bad[0]!r} in `# hiera: {body}` is not a function name"
        return pairs, None
    return None


def scan_python(source: str) -> PythonScan:
    if not _INTERESTING.search(source):
        return EMPTY
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError) as e:
        return PythonScan((), False, f"{type(e).__name__}: {e}")
    lines = source.splitlines()
    functions: set[str] = set()
    classes: dict[str, ast.ClassDef] = {}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            functions.add(node.name)
        elif isinstance(node, ast.Assign):  # get_inputs = some_factory(...) counts too
            functions.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.ClassDef):
            classes[node.name] = node
    is_result = "ModelNew" in classes

    # nn.Module subclasses, including subclasses of other such classes in this file.
    module_names: set[str] = set()
    changed = True
    while changed:
        changed = False
        for name, cls in classes.items():
            if name in module_names:
                continue
            bases = {_base_name(b) for b in cls.bases}
            if "Module" in bases or bases & module_names:
                module_names.add(name)
                changed = True

    kernelbench = {"get_inputs", "get_init_inputs"} <= functions
    found: list[ModuleClass] = []
    for name, cls in classes.items():
        ann = _annotation(lines, cls)
        if name not in module_names and not (name == "Model" and kernelbench) and ann is None:
            continue
        header = min([cls.lineno, *(d.lineno for d in cls.decorator_list)]) - 1
        line_text = lines[cls.lineno - 1] if cls.lineno - 1 < len(lines) else ""
        name_col = max(line_text.find(name, cls.col_offset), 0)
        common = {"name": name, "header_line": header, "class_line": cls.lineno - 1, "name_col": name_col,
                  "end_line": (cls.end_lineno or cls.lineno) - 1}
        if ann is not None:
            pairs, problem = ann
            inputs_fn, init_fn = pairs.get("inputs"), pairs.get("init")
            if problem is None:
                missing = [f for f in (inputs_fn, init_fn) if f and f not in functions]
                if missing:
                    problem = (f"{missing[0]}, named in the `# hiera:` comment of {name}, is not a module-level "
                               "function of this file")
            found.append(ModuleClass(kind="annotated", inputs_fn=inputs_fn, init_fn=init_fn, problem=problem,
                                     **common))
        elif name == "Model" and kernelbench:
            found.append(ModuleClass(kind="kernelbench", inputs_fn="get_inputs", init_fn="get_init_inputs",
                                     **common))
        else:
            found.append(ModuleClass(kind="no_inputs", problem=f"{name} has no inputs to run it with", **common))
    found.sort(key=lambda m: m.header_line)
    return PythonScan(tuple(found), is_result)


# --- .cu files -----------------------------------------------------------------------------------------

_GLOBAL = re.compile(r"__global__\b[^;{(]*?\b([A-Za-z_]\w*)\s*(?:<[^>]*>\s*)?\(", re.S)
# Comments, and attribute macros with arguments that sit between __global__ and the kernel's name.
_BLANK = re.compile(r"//[^\n]*|/\*.*?\*/|__(?:launch_bounds|cluster_dims|maxnreg)__\s*\([^)]*\)", re.S)


@dataclass(frozen=True)
class Kernel:
    name: str
    line: int  # 0-based line of the `__global__` keyword
    name_line: int  # 0-based line of the kernel's name (usually the same)


def find_kernels(source: str) -> list[Kernel]:
    """`__global__` functions of a CUDA source; comments are blanked first (same length, same lines)."""
    blank = _BLANK.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), source)
    out = []
    line, pos = 0, 0  # newlines are counted from the previous match on: linear in the file's size
    for m in _GLOBAL.finditer(blank):
        line += blank.count("\n", pos, m.start())
        pos = m.start()
        out.append(Kernel(m.group(1), line, line + blank.count("\n", m.start(), m.start(1))))
    return out


def kernel_at(source: str, line: int) -> Kernel | None:
    """The kernel whose declaration spans `line` (from `__global__` to its name)."""
    for k in find_kernels(source):
        if k.line <= line <= k.name_line:
            return k
    return None
