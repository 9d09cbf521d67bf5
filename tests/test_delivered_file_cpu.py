"""The delivered file is what was verified (issue 42, class 1), each defence with its positive control.

- Hidden characters (bidirectional controls, zero-width and other format characters, stray controls) in a
  candidate's source are refused with a reason before it builds, and an export refuses to embed them. Control:
  such a source builds and runs, and what it computes is not what it reads as.
- A whole-ModelNew result (--no-contract) is inert on import, as a contract kernel's file is. Control: the
  verbatim file the loop wrote before ran the candidate's module-level code in the importing process.
- The sandbox shows the host's own host name and user name. Control: a process in the sandbox as it was saw
  "sandbox", which a kernel can test for.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import socket
import subprocess
from pathlib import Path
from typing import Any

import pytest

from contracts.shapes import ShapeCheck, ShapeReport
from tests.conftest import TASKS

# A C++ kernel whose early return reads as part of a comment: the U+202E/U+2066/U+2069 characters reorder the line
# on screen (Trojan Source's "commenting-out"), the compiler sees `return 0;` as code.
TROJAN = ('#include "hiera_contract.h"\n'
          'extern "C" int hiera_forward(const hiera_tensor* x, const hiera_tensor* bias, double scale,\n'
          '                             hiera_tensor* out, void* stream) {\n'
          '    (void)stream; (void)x; (void)bias; (void)scale; (void)out;\n'
          '    /*\u202e } \u2066return 0;\u2069 \u2066 begin the real work */\n'
          '    return 1;\n'
          '}\n')


def _load(path: Path, name: str) -> Any:
    s = importlib.util.spec_from_file_location(name, path)
    assert s is not None and s.loader is not None
    mod = importlib.util.module_from_spec(s)
    s.loader.exec_module(mod)
    return mod


# --- hidden characters --------------------------------------------------------------------------------------

def test_control_a_trojan_source_builds_and_the_compiler_runs_what_reads_as_a_comment(tmp_path: Path) -> None:
    from engine.evaluate.build import BuildConfig, build_one
    from engine.evaluate.native import NativeError, NativeForward
    from engine.evaluate.outcome import Candidate, CandidateKind
    from engine.task.contract import contract_layout, write_contract
    from engine.task.spec import load_task

    spec = load_task(TASKS / "scale_bias_relu.py")
    write_contract(spec, tmp_path / "contract")
    built = build_one(Candidate("trojan", CandidateKind.CPP, TROJAN), BuildConfig(tmp_path / "contract",
                                                                                 tmp_path / "cache"))
    assert built.ok, built.log[:1000]
    task = _load(TASKS / "scale_bias_relu.py", "sbr_trojan")
    ref = task.Model(*task.get_init_inputs())
    fwd = NativeForward(built.artifact, contract_layout(spec))
    # As displayed, `return 0;` reads as code after a comment (the controls reorder the line); the compiler saw it
    # inside the comment and ran what follows.
    with pytest.raises(NativeError, match="returned 1"):
        fwd([task.get_inputs()[0]], dict(ref.named_parameters()), {"scale": ref.scale})


def test_hidden_characters_are_named_with_where_they_are() -> None:
    from engine.task.hidden_text import hidden_characters, refusal

    found = hidden_characters(TROJAN)
    assert found[0].startswith("line 5, column 7: U+202E RIGHT-TO-LEFT OVERRIDE"), found
    assert "Trojan Source" in (refusal(TROJAN) or "")
    assert refusal("int a\u200b = 1;\n") and "ZERO WIDTH SPACE" in (refusal("int a\u200b = 1;\n") or "")
    assert refusal("x = 1\x1b[2J\n") and refusal("a\u2028b")
    assert refusal("// µs, naïve, 東京\r\nint x;\tint y;\n") is None  # visible text, tabs and CRLF stay allowed


def test_a_candidate_with_hidden_characters_is_refused_before_it_builds(tmp_path: Path) -> None:
    from tests import test_attacks_cpu as kit

    (tmp_path / "trojan.cpp").write_text(TROJAN)
    shutil.copy(tmp_path / "trojan.cpp", kit.ATTACKS / "_trojan_test.cpp")
    try:
        with kit.arena_at(tmp_path / "arena") as a:
            outs = kit.evaluate_api(a, TASKS / "scale_bias_relu.py", [("_trojan_test.cpp", None)])
    finally:
        (kit.ATTACKS / "_trojan_test.cpp").unlink()
    o = outs["_trojan_test"]
    assert o.status.value == "build_failed" and "U+202E" in o.reason and "Trojan Source" in o.reason, o.reason
    assert o.build_s is None  # refused before the compiler saw it


def test_an_export_refuses_a_source_with_hidden_characters(tmp_path: Path) -> None:
    from engine.cli import main
    from engine.task.export import ExportError, modelnew_source
    from engine.task.spec import load_task

    with pytest.raises(ExportError, match="U\\+202E"):
        modelnew_source(load_task(TASKS / "scale_bias_relu.py"), TROJAN, cuda=False)
    task = tmp_path / "scale_bias_relu.py"
    shutil.copy(TASKS / "scale_bias_relu.py", task)
    (tmp_path / "k.cpp").write_text(TROJAN)
    assert main(["export", str(task), str(tmp_path / "k.cpp"), "--out", str(tmp_path / "out")]) != 0
    assert not (tmp_path / "out").exists() or not list((tmp_path / "out").iterdir())


# --- a whole-ModelNew result --------------------------------------------------------------------------------

MODELNEW = ("import pathlib\nimport torch\n"
            "pathlib.Path(@MARK@).write_text('ran at import')\n"
            "class ModelNew(torch.nn.Module):\n    def __init__(self, cols, scale):\n        super().__init__()\n"
            "        self.bias = torch.nn.Parameter(torch.zeros(cols))\n        self.scale = scale\n"
            "    def forward(self, x):\n        return torch.relu(x * self.scale + self.bias)\n"
            "def get_inputs():\n    return [torch.randn(4, 512)]\n")


def _modelnew_result(tmp_path: Path, shapes: ShapeReport | None = None) -> tuple[Path, Path]:
    """A whole-ModelNew best written by ResultFiles, as the loop writes it; (the result file, the marker).
    `shapes`: what it was found valid on at other batch sizes (None: not checked there)."""
    from contracts.runrecord import Verdict
    from contracts.vocabulary import Direction, Space
    from engine.evaluate.outcome import Candidate, CandidateKind, Outcome, Status, Timing
    from engine.loop_state import Best
    from engine.result_files import ResultFiles

    mark = tmp_path / "marker"
    cand = Candidate("m", CandidateKind.MODELNEW, MODELNEW.replace("@MARK@", repr(str(mark))))
    t = Timing.from_samples([1.0] * 10, "perf_counter")
    fast = Timing.from_samples([0.5] * 10, "perf_counter")
    best = Best(cand, Outcome("m", Status.VALID, "ok", candidate=fast, reference=t, shapes=shapes), 1,
                Space.LIBRARIES_PYTORCH, Direction.C)

    class Loop:
        class settings:
            results_dir = tmp_path / "out"
            keep_slower = True

        class spec:
            path = tmp_path / "scale_bias_relu.py"
            batch = None

    shutil.copy(TASKS / "scale_bias_relu.py", Loop.spec.path)
    assert best.figure().verdict in (Verdict.FASTER.value, Verdict.LEVEL.value, Verdict.SLOWER.value)
    paths = ResultFiles(Loop)._write_pair(best, best.figure(), "run1", tmp_path / "out")  # type: ignore[arg-type]
    return Path(paths.py), mark


def test_control_the_verbatim_modelnew_file_ran_its_code_on_import(tmp_path: Path) -> None:
    mark = tmp_path / "marker"
    old = tmp_path / "old_result.py"  # what the loop wrote before: a comment line, then the source verbatim
    old.write_text("# The best of an optimize run (hiera run run1): 2.00x\n" +
                   MODELNEW.replace("@MARK@", repr(str(mark))))
    _load(old, "old_result")
    assert mark.read_text() == "ran at import"


def test_a_modelnew_result_is_inert_on_import_and_runs_on_first_use(tmp_path: Path) -> None:
    import torch

    from engine.task.export import ExportError, check_wrapper

    py, mark = _modelnew_result(tmp_path)
    text = py.read_text()
    assert "(hiera run run1)" in text.splitlines()[0]
    mod = _load(py, "wrapped_result")
    assert not mark.exists()  # importing ran nothing of it
    model = mod.ModelNew(512, 0.5)
    assert mark.read_text() == "ran at import"  # its module ran once, on first use
    x = torch.randn(4, 512)
    assert torch.equal(model(x), torch.relu(x * 0.5)) and isinstance(model, torch.nn.Module)
    assert len(mod.get_inputs()) == 1  # its other names, on demand
    copy = py.with_name(py.stem + ".source.py.txt")
    assert copy.read_text() == MODELNEW.replace("@MARK@", repr(str(mark)))
    with pytest.raises(ExportError):
        check_wrapper(text + "\nimport os\n", copy.read_text())  # a statement more: refused
    with pytest.raises(ExportError):
        check_wrapper(text, copy.read_text() + "# not what was verified\n")


def test_a_modelnew_result_checked_at_other_sizes_refuses_those_it_was_not_found_valid_at(tmp_path: Path) -> None:
    import torch

    report = ShapeReport(4, (ShapeCheck(1, "valid"), ShapeCheck(8, "incorrect", "wrong")), drawn=True)
    py, _ = _modelnew_result(tmp_path, report)
    doc = " ".join(py.read_text().split('"""')[1].split())
    assert "valid at batch 1; incorrect at batch 8. It serves batch sizes 1 to 4" in doc, doc
    model = _load(py, "guarded_result").ModelNew(512, 0.5)
    x = torch.randn(3, 512)
    assert torch.equal(model(x), torch.relu(x * 0.5))
    with pytest.raises(ValueError, match=r"batch size 8 .* 1 to 4"):
        model(torch.randn(8, 512))


def test_an_unchecked_modelnew_result_says_so(tmp_path: Path) -> None:
    py, _ = _modelnew_result(tmp_path)
    doc = " ".join(py.read_text().split('"""')[1].split())
    assert "verified at the shapes of get_inputs() only; other shapes were not checked" in doc, doc
    assert "_guard" not in py.read_text()


# --- the sandbox's identity ---------------------------------------------------------------------------------

def _identity_in_sandbox(tmp_path: Path) -> list[str]:
    from engine.evaluate import sandbox

    scratch = tmp_path / "s"
    scratch.mkdir()
    cmd = sandbox.command(sandbox.Policy(scratch=scratch, scratch_bytes=1 << 20),
                          ["/bin/sh", "-c", "cat /proc/sys/kernel/hostname; echo $USER; "
                                            "grep \"^$(id -un):\" /etc/passwd | cut -d: -f1"])
    return subprocess.run(cmd, capture_output=True, text=True, timeout=60).stdout.split()


def test_control_the_sandbox_as_it_was_called_itself_sandbox(tmp_path: Path, monkeypatch) -> None:
    from engine.evaluate import sandbox

    monkeypatch.setattr(sandbox, "host_identity", lambda: ("sandbox", "sandbox"))
    assert _identity_in_sandbox(tmp_path) == ["sandbox", "sandbox", "sandbox"]


def test_the_sandbox_shows_the_hosts_name_and_the_users(tmp_path: Path) -> None:
    import getpass

    got = _identity_in_sandbox(tmp_path)
    assert got[0] == socket.gethostname() and got[1] == getpass.getuser() == got[2], got
    assert os.environ.get("USER", getpass.getuser()) == got[1]


# --- the exported build is the verified build ---------------------------------------------------------------

def test_control_the_old_exports_build_defined_what_the_verified_build_did_not(tmp_path: Path) -> None:
    """The old export compiled the kernel in torch's extension build (load_inline with the kernel among its C++
    sources): TORCH_EXTENSION_NAME is defined there, so export_define_branch.cpp's exported file wrote zeros."""
    from torch.utils.cpp_extension import load_inline

    probe = ("int defined_there() {\n#ifdef TORCH_EXTENSION_NAME\n  return 1;\n#else\n  return 0;\n#endif\n}\n")
    ext = load_inline(name="hiera_define_probe", cpp_sources=[probe], functions=["defined_there"],
                      build_directory=str(tmp_path), verbose=False)
    assert ext.defined_there() == 1


def test_the_exported_file_loads_the_verified_library_by_its_hash(tmp_path: Path, monkeypatch) -> None:
    import hashlib

    import torch

    from engine.cli import main

    monkeypatch.setenv("TORCH_EXTENSIONS_DIR", str(tmp_path / "ext"))
    task = tmp_path / "scale_bias_relu.py"
    shutil.copy(TASKS / "scale_bias_relu.py", task)
    kernel = Path(__file__).resolve().parent / "data" / "attacks" / "export_define_branch.cpp"
    assert main(["export", str(task), str(kernel), "--out", str(tmp_path / "out")]) == 0
    mod = _load(tmp_path / "out" / "scale_bias_relu_hiera.py", "exported_define_branch")
    assert mod._LIBRARY and hashlib.sha256(mod._LIBRARY).hexdigest() == mod._LIBRARY_SHA
    torch.manual_seed(0)
    ref = mod.Model(*mod.get_init_inputs())
    new = mod.ModelNew(*mod.get_init_inputs())
    new.load_state_dict(ref.state_dict())
    x = mod.get_inputs()[0]
    torch.testing.assert_close(new(x), ref(x), atol=1e-5, rtol=1e-5)  # not zeros: the verified build runs
    folder = Path(mod._FOLDER)
    assert hashlib.sha256((folder / "kernel.so").read_bytes()).hexdigest() == mod._LIBRARY_SHA
    assert not (folder / mod._SOURCE_NAME).exists()  # nothing of the kernel was compiled here
    # A library in its place that is not the verified one is never what is loaded: it is written again. Put there as
    # a new file: truncating the one this process has loaded (write_bytes on it) kills the process with SIGBUS when
    # the library's pages are next read (at exit, its finalizers: pytest passed and exited 135).
    (folder / "kernel.so").unlink()
    (folder / "kernel.so").write_bytes(b"not it")
    assert hashlib.sha256(Path(mod._kernel_library([], [])).read_bytes()).hexdigest() == mod._LIBRARY_SHA


def test_without_a_library_the_exported_file_builds_the_kernel_by_the_verified_recipe(tmp_path: Path,
                                                                                     monkeypatch) -> None:
    from engine.task import kernel_build
    from engine.task.export import modelnew_source
    from engine.task.spec import load_task

    monkeypatch.setenv("TORCH_EXTENSIONS_DIR", str(tmp_path / "ext"))
    task = tmp_path / "scale_bias_relu.py"
    shutil.copy(TASKS / "scale_bias_relu.py", task)
    source = (Path(__file__).resolve().parent / "data" / "attacks" / "export_define_branch.cpp").read_text()
    out = tmp_path / "exported_nolib.py"
    out.write_text(modelnew_source(load_task(task), source, cuda=False))
    mod = _load(out, "exported_nolib")
    assert mod._LIBRARY == b"" and list(kernel_build.CPP_FLAGS) == mod._KERNEL_FLAGS
    Path(mod._FOLDER).mkdir(parents=True)
    lib = Path(mod._kernel_library([], []))
    import ctypes

    import torch

    from engine.evaluate.native import NativeForward
    from engine.task.contract import contract_layout

    assert ctypes.CDLL(str(lib)) is not None
    spec = load_task(task)
    ref = mod.Model(*mod.get_init_inputs())
    x = mod.get_inputs()[0]
    got = NativeForward(str(lib), contract_layout(spec))([x], dict(ref.named_parameters()), {"scale": ref.scale})
    torch.testing.assert_close(got, ref(x).detach(), atol=1e-5, rtol=1e-5)  # built alone: no torch define


ZEROS = ('#include "hiera_contract.h"\n'
         'extern "C" int hiera_forward(const hiera_tensor* x, const hiera_tensor* bias, double scale,\n'
         '                             hiera_tensor* out, void* stream) {\n'
         '    (void)stream; (void)bias; (void)scale;\n'
         '    float* o = (float*)out->data;\n'
         '    for (int64_t i = 0; i < x->sizes[0] * x->sizes[1]; ++i) o[i] = 0.f;\n'
         '    return 0;\n}\n')


def test_the_optional_first_call_check_runs_the_reference_where_the_kernel_disagrees(tmp_path: Path, monkeypatch,
                                                                                       capfd) -> None:
    import torch

    from engine.task.export import modelnew_source
    from engine.task.spec import load_task

    monkeypatch.setenv("TORCH_EXTENSIONS_DIR", str(tmp_path / "ext"))
    task = tmp_path / "scale_bias_relu.py"
    shutil.copy(TASKS / "scale_bias_relu.py", task)
    out = tmp_path / "exported_zeros.py"
    out.write_text(modelnew_source(load_task(task), ZEROS, cuda=False))
    mod = _load(out, "exported_zeros")
    torch.manual_seed(0)
    x = mod.get_inputs()[0]
    ref = mod.Model(*mod.get_init_inputs())
    want = ref(x).detach()
    monkeypatch.delenv("HIERA_CHECK_NEW_SHAPES", raising=False)
    plain = mod.ModelNew(*mod.get_init_inputs())
    plain.load_state_dict(ref.state_dict())
    assert not torch.allclose(plain(x), want)  # control: unchecked, the kernel's zeros are returned
    monkeypatch.setenv("HIERA_CHECK_NEW_SHAPES", "1")
    checked = mod.ModelNew(*mod.get_init_inputs())
    checked.load_state_dict(ref.state_dict())
    capfd.readouterr()
    torch.testing.assert_close(checked(x), want)
    torch.testing.assert_close(checked(x), want)  # and at that shape from then on
    assert "disagrees with the reference" in capfd.readouterr().err
