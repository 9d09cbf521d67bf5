"""Which package may import which: the language server stands on contracts/ alone, contracts/ on the standard
library alone, and the evaluator's trusted checker reaches nothing that loads candidate code.

hiera_ls/ reads what the engine writes (events, results, the run store, stored profiles) through the types in
contracts/, never by importing the engine: an editor's server must start without torch, and a fact kept in
the engine and read by the server would be kept twice the day someone copies it. contracts/ is what both sides
import, so it imports nothing of either side, nor any package outside the standard library.

The trusted checker judges candidates, so it must not even import what imports or dlopens one in-process
(session.py, native.py: the profiled program does that, in the sandbox).

The graph is read from the sources (every `import` at any depth, a function's deferred import included), so a
test passes only when no path of imports leads there, not merely when today's process happens not to load it.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
OURS = ("contracts", "engine", "hiera_ls")


def module_file(name: str) -> Path | None:
    """The repository's file for a module name (a package's __init__.py), None for one outside the repo."""
    base = REPO.joinpath(*name.split("."))
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def module_name(path: Path) -> str:
    parts = path.relative_to(REPO).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(path: Path) -> set[str]:
    """Every module a file imports, by absolute name: `from a import b` names a.b where b is a module."""
    package = module_name(path) if path.name == "__init__.py" else module_name(path).rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: from the file's package, one level up per dot beyond the first
                up = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join([*up, node.module] if node.module else up)
            else:
                base = node.module or ""
            out.add(base)
            out.update(f"{base}.{a.name}" for a in node.names if module_file(f"{base}.{a.name}") is not None)
    return out


def reached_from(roots: list[Path]) -> dict[str, list[str]]:
    """Every module of ours reachable from the roots' imports, each with one chain of imports that reaches it."""
    chains = {module_name(p): [module_name(p)] for p in roots}
    todo = list(chains)
    while todo:
        name = todo.pop()
        path = module_file(name)
        if path is None:
            continue
        for imported in sorted(imports_of(path)):
            if imported.split(".")[0] in OURS and imported not in chains:
                chains[imported] = [*chains[name], imported]
                todo.append(imported)
    return chains


def test_the_language_server_reaches_nothing_of_the_engine_through_any_chain_of_imports():
    roots = sorted(REPO.glob("hiera_ls/**/*.py"))
    assert len(roots) > 20, "the walk found no language-server sources"
    chains = reached_from(roots)
    assert any(n.startswith("contracts.") for n in chains), "the walk found none of the imports it should follow"
    engine = sorted(" -> ".join(chain) for name, chain in chains.items() if name.split(".")[0] == "engine")
    assert not engine, "hiera_ls reaches the engine:\n" + "\n".join(engine)


def test_contracts_holds_only_what_the_language_server_reads():
    """contracts/ is the shared-types package: each of its modules is reached from hiera_ls/ by some chain of
    imports. A module only the engine reads (the task's loading, contract, export, spaces: engine/task/) belongs
    to the engine, where it may use torch and the engine's own modules."""
    chains = reached_from(sorted(REPO.glob("hiera_ls/**/*.py")))
    ours = sorted(module_name(p) for p in REPO.glob("contracts/*.py") if p.name != "__init__.py")
    assert len(ours) > 10, "the walk found no contracts modules"
    unread = [name for name in ours if name not in chains]
    assert not unread, f"contracts modules the language server never reaches (move them under engine/): {unread}"


def test_the_shared_types_rule_sees_a_module_only_the_engine_reads(tmp_path, monkeypatch):
    """The check above can fail: a contracts module imported by the engine alone is named."""
    fake = tmp_path / "repo"
    for rel, text in {"hiera_ls/__init__.py": "", "hiera_ls/views.py": "from contracts import shared\n",
                      "contracts/__init__.py": "", "contracts/shared.py": "", "contracts/engine_only.py": "",
                      "engine/__init__.py": "", "engine/loop.py": "from contracts import engine_only\n"}.items():
        (fake / rel).parent.mkdir(parents=True, exist_ok=True)
        (fake / rel).write_text(text)
    monkeypatch.setattr(sys.modules[__name__], "REPO", fake)
    chains = reached_from(sorted(fake.glob("hiera_ls/**/*.py")))
    assert "contracts.shared" in chains and "contracts.engine_only" not in chains


def test_the_walk_sees_a_deferred_import_through_contracts(tmp_path, monkeypatch):
    """The check above can fail: an engine import inside a function, one module away, is found with its chain."""
    fake = tmp_path / "repo"
    for rel, text in {"hiera_ls/__init__.py": "", "hiera_ls/views.py": "from contracts import shared\n",
                      "contracts/__init__.py": "", "engine/__init__.py": "", "engine/profile.py": "",
                      "contracts/shared.py": "def f():\n    from engine.profile import x\n"}.items():
        (fake / rel).parent.mkdir(parents=True, exist_ok=True)
        (fake / rel).write_text(text)
    monkeypatch.setattr(sys.modules[__name__], "REPO", fake)
    chains = reached_from([fake / "hiera_ls" / "views.py"])
    assert chains["engine.profile"] == ["hiera_ls.views", "contracts.shared", "engine.profile"]


def test_contracts_import_only_the_standard_library_and_each_other():
    offenders = []
    for path in sorted(REPO.glob("contracts/**/*.py")):
        rel = str(path.relative_to(REPO))
        for name in sorted(imports_of(path)):
            top = name.split(".")[0]
            if top not in sys.stdlib_module_names and top != "contracts":
                offenders.append(f"{rel} imports {name}")
    assert not offenders, "\n".join(offenders)


def test_every_contracts_module_imports_without_torch_the_engine_or_the_language_server():
    names = sorted(module_name(p) for p in REPO.glob("contracts/**/*.py"))
    assert {"contracts.profile", "contracts.hotlines", "contracts.runrecord", "contracts.runstore"} <= set(names)
    probe = (f"import sys; import {', '.join(names)}; "
             "print(sorted({m.split('.')[0] for m in sys.modules} & "
             "{'torch', 'numpy', 'engine', 'hiera_ls', 'lsprotocol', 'pygls'}))")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=REPO, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"


def test_the_task_probe_starts_without_torch():
    """engine/task/probe.py is the program engine/task/spec.py starts in the task's own interpreter (user code,
    torch and all): its torch imports are in the functions that run there, and the packages above it import
    nothing heavy, so its start is the task's own."""
    probe = ("import sys; import engine.task.probe; "
             "print(sorted({m.split('.')[0] for m in sys.modules} & {'torch', 'numpy', 'hiera_ls', 'pygls'}))")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=REPO, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"


def test_the_scripted_test_client_lives_outside_the_server_package():
    """tools/scripted_client.py drives the server from tests and scripts: it is not shipped in hiera_ls (the
    wheel packages contracts, engine and hiera_ls alone), and the server's own imports never reach it, so what
    the server needs of it (plain JSON for hiera/* messages) is its own."""
    assert not (REPO / "hiera_ls" / "scripted_client.py").exists()
    assert (REPO / "tools" / "scripted_client.py").exists()
    chains = reached_from([REPO / "hiera_ls" / "server.py", REPO / "hiera_ls" / "__main__.py"])
    assert "hiera_ls.hiera_server" in chains and "hiera_ls.plain_json" in chains
    assert not [m for m in chains if m.startswith("tools")], [m for m in chains if m.startswith("tools")]


def test_the_trusted_checker_reaches_no_module_that_loads_candidate_code():
    """session.py and native.py import or dlopen a candidate in-process (the profiled program does that, in the
    sandbox); the checker, which judges candidates, must not even import them."""
    # The checker's concerns, split out of checker.py (issue 26), are trusted as much as the checker itself:
    # each is walked from on its own, and the checker's walk must reach them (else they are not its own).
    concerns = ("inputs_pool", "timing_policy", "clock_check", "runner_limits", "library_audit", "variants")
    checker_chains = reached_from([REPO / "engine/evaluate/checker.py"])
    unreached = [m for m in concerns if f"engine.evaluate.{m}" not in checker_chains]
    assert not unreached, f"the checker's walk does not reach {unreached}"
    for trusted in ("engine/evaluate/checker.py", "engine/evaluate/worker.py",
                    *(f"engine/evaluate/{m}.py" for m in concerns)):
        chains = reached_from([REPO / trusted])
        assert "engine.evaluate.requests" in chains or "engine.evaluate.perturb" in chains, \
            f"the walk from {trusted} found none of its imports"
        loaders = [" -> ".join(chains[m]) for m in ("engine.evaluate.session", "engine.evaluate.native")
                   if m in chains]
        assert not loaders, f"{trusted} reaches a module that loads candidate code:\n" + "\n".join(loaders)


def test_the_rule_sees_an_import_that_breaks_it():
    chains = reached_from([REPO / "engine" / "evaluate" / "session.py"])  # the walk does follow imports
    assert "engine.evaluate.native" in chains, sorted(chains)


# --- no module reads another module's private members (issue 40) -------------------------------------------------

def private_names(tree: ast.AST) -> set[str]:
    """The _private names a module defines: its functions and classes, its module-level names and the attributes
    it assigns (self._x = ...)."""
    names: set[str] = set()
    for n in ast.walk(tree):
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(n.name)
        elif isinstance(n, ast.Attribute) and isinstance(n.ctx, ast.Store):
            names.add(n.attr)
        elif isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
            names.add(n.id)
    return {x for x in names if x.startswith("_") and not x.startswith("__")}


def foreign_private_reads(files: list[Path]) -> list[str]:
    """Each `x._name` in one of `files` where _name is a private member some other of `files` defines and this
    one does not: a module reaching into another's privates (a library's own privates, which no module of ours
    defines, are not this test's matter; self, cls and super() are the module's own)."""
    trees = {f: ast.parse(f.read_text(encoding="utf-8")) for f in files}
    defined = {f: private_names(t) for f, t in trees.items()}
    found = []
    for f, tree in trees.items():
        elsewhere = set().union(*(d for g, d in defined.items() if g != f))
        for n in ast.walk(tree):
            if not (isinstance(n, ast.Attribute) and n.attr.startswith("_") and not n.attr.startswith("__")):
                continue
            v = n.value
            if (isinstance(v, ast.Name) and v.id in ("self", "cls")) or (
                    isinstance(v, ast.Call) and isinstance(v.func, ast.Name) and v.func.id == "super"):
                continue
            if n.attr in elsewhere and n.attr not in defined[f]:
                found.append(f"{f.relative_to(REPO) if f.is_relative_to(REPO) else f}:{n.lineno} {ast.unparse(n)}")
    return found


def test_no_module_reads_another_modules_private_members(tmp_path: Path) -> None:
    """A helper gets what it needs through a narrow interface (engine/evaluate/trial_seam.py is the checker's for
    the back-to-back and variants checks), not its host's private members."""
    # The control: a host with a private member and a helper in another module that reads it are found.
    (tmp_path / "host.py").write_text("class Host:\n    def __init__(self):\n        self._secret = 1\n")
    (tmp_path / "helper.py").write_text("def peek(host):\n    return host._secret\n")
    assert foreign_private_reads([tmp_path / "host.py", tmp_path / "helper.py"]) == [
        f"{tmp_path / 'helper.py'}:2 host._secret"]
    files = sorted(p for pkg in OURS for p in (REPO / pkg).rglob("*.py"))
    assert foreign_private_reads(files) == []
