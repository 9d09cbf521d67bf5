#!/usr/bin/env python
"""Drive hiera-ls like an editor, on a real workspace, and print what happened.

Starts `python -m hiera_ls` on WORKSPACE, opens a module, asks for code actions on its class, runs
"Optimize with HIERA" (the action's own command), follows the job's progress until it ends, lets the
result edit create the files on disk, then reads back what an editor would show: diagnostics on the
module and on the result's .cu (from the run's Nsight Compute profile, on a GPU), the hover, the code
lenses and hiera/runResults. Optionally runs "Profile kernel" on the result .cu as well.

    python scripts/ls_drive.py WS --file WS/task.py [--class Model] [--settings '{"rounds": 1}']
        [--require-profile] [--profile-kernel] [--out transcript.json]

Exits 0 when the job finished with its result delivered as the run's verdict says: a best faster than eager
through a result edit that created the files (the kernel a `.cu` on a GPU, a `.cpp` on the CPU, which is
opened and read back too), a best that is not (slower, level, unstable timing) with no edit, its files kept in
the run's folder and the class diagnostic saying so; and, with --require-profile, .cu diagnostics from a
profile. 1 otherwise, saying what was missing. Server stderr goes to WS/.hiera/ls-drive.log.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from pathlib import Path
from typing import Any

from lsprotocol import types
from pygls.uris import to_fs_path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from contracts.runrecord import KEPT_DIRS
from tools import scripted_client as hc


def say(t0: float, text: str) -> None:
    print(f"[{time.monotonic() - t0:7.1f}s] {text}", flush=True)


def diag_lines(diags: list[types.Diagnostic]) -> list[str]:
    sev = {1: "error", 2: "warning", 3: "info", 4: "hint"}
    return [f"line {d.range.start.line + 1} {sev.get(int(d.severity or 3), '?')}: {d.message}" for d in diags]


async def drive(a: argparse.Namespace) -> int:
    ws = Path(a.workspace).resolve()
    task = Path(a.file).resolve()
    settings = json.loads(a.settings)
    (ws / ".hiera").mkdir(exist_ok=True)
    log = open(ws / ".hiera" / "ls-drive.log", "a")  # noqa: SIM115 - lives as long as the server
    t0 = time.monotonic()
    transcript: dict[str, Any] = {"workspace": str(ws), "task": str(task), "settings": settings, "problems": []}
    problems: list[str] = transcript["problems"]
    client, rec = await hc.start(ws, settings, stderr=log)
    say(t0, f"hiera-ls started on {ws}")
    try:
        uri = hc.open_doc(client, task)
        lines = task.read_text().splitlines()
        cls_line = next((i for i, t in enumerate(lines) if t.lstrip().startswith(f"class {a.class_name}")), None)
        if cls_line is None:
            problems.append(f"no `class {a.class_name}` in {task}")
            return 1
        pos = types.Position(cls_line, 6)
        actions = await client.text_document_code_action_async(types.CodeActionParams(
            types.TextDocumentIdentifier(uri), types.Range(pos, pos), types.CodeActionContext(diagnostics=[])))
        titles = [x.title for x in actions or []]
        transcript["code_actions"] = titles
        say(t0, f"code actions on {a.class_name}: {titles}")
        action = next((x for x in actions or [] if x.title == "Optimize with HIERA"), None)
        if action is None or action.command is None:
            problems.append("no 'Optimize with HIERA' code action")
            return 1
        answer = await client.workspace_execute_command_async(types.ExecuteCommandParams(
            command=action.command.command, arguments=action.command.arguments))
        say(t0, f"executeCommand {action.command.command} -> {answer}")
        job_id = answer.get("jobId") if isinstance(answer, dict) else None
        if not job_id:
            problems.append(f"the command did not start a job: {answer}")
            return 1

        seen = 0
        final: dict[str, Any] | None = None
        deadline = time.monotonic() + a.timeout
        while final is None and time.monotonic() < deadline:
            await rec.wait_for(lambda n=seen: len(rec.job_status) > n, 5.0)
            for st in rec.job_status[seen:]:
                if st.get("jobId") == job_id:
                    say(t0, f"job {st['state']}: {st['message']}")
                    if st["state"] in ("finished", "failed", "cancelled"):
                        final = st
            seen = len(rec.job_status)
        transcript["progress"] = [{"t": round(t, 2), **(v if isinstance(v, dict) else {"value": str(v)})}
                                  for vals in rec.progress.values() for t, v in vals]
        transcript["job"] = final
        if final is None:
            problems.append(f"the job did not end within {a.timeout:.0f} s")
            return 1
        if final["state"] != "finished":
            problems.append(f"the job ended {final['state']}: {final['message']}")
        await asyncio.sleep(1.0)  # the result edit and diagnostics follow the job's end
        transcript["messages"] = [m.message for _, m in rec.messages]
        for _, m in rec.messages:
            say(t0, f"showMessage: {m.message}")
        created: list[str] = []
        for params, applied in rec.edits:
            files = [c.uri for c in params.edit.document_changes or [] if isinstance(c, types.CreateFile)]
            created += files
            say(t0, f"applyEdit ({'applied' if applied else 'refused'}): {files}")
        transcript["created"] = created
        res = await client.protocol.send_request_async("hiera/runResults", {"runId": final.get("runId")})
        transcript["run_results"] = res
        best = (res or {}).get("best")
        faster = bool(best) and best.get("verdict") == "faster"
        if best:
            say(t0, f"best: {best.get('headline')} {best.get('uncertainty') or ''} ({best.get('verdict')})")
        if faster and not created:
            problems.append("a best faster than eager was found but no workspace edit created the files")
        elif best and not faster:  # a correct loss: nothing beside the module, the files kept in the run
            kept = Path((best.get("paths") or {}).get("py") or "")
            if created:
                problems.append(f"a best that is not faster than eager ({best.get('verdict')}) was written beside "
                                f"the module: {created}")
            if not kept.is_file() or kept.parent.name not in KEPT_DIRS:
                problems.append(f"the {best.get('verdict')} best's files are not kept in the run's folder: {kept}")

        await rec.wait_for(lambda: bool(rec.diagnostics.get(uri)), 5.0)
        transcript["module_diagnostics"] = diag_lines(rec.diagnostics.get(uri, []))
        say(t0, f"module diagnostics: {transcript['module_diagnostics']}")
        if best and not faster and not any("nothing was written beside this file" in d
                                           for d in transcript["module_diagnostics"]):
            problems.append("the class diagnostic does not say that nothing was written beside the module")
        hover = await client.text_document_hover_async(types.HoverParams(types.TextDocumentIdentifier(uri), pos))
        transcript["hover"] = hover.contents.value if hover else None
        print("----- hover -----\n" + (transcript["hover"] or "(none)") + "\n-----------------", flush=True)
        lenses = await client.text_document_code_lens_async(types.CodeLensParams(types.TextDocumentIdentifier(uri)))
        transcript["code_lenses"] = [x.command.title for x in lenses or [] if x.command]
        say(t0, f"code lenses: {transcript['code_lenses']}")

        cpp_uri = next((u for u in created if u.endswith(".cpp")), None)
        if cpp_uri:  # the CPU path's kernel: C++ with the contract's entry point, no Nsight Compute marks
            cpp_path = Path(to_fs_path(cpp_uri) or "")
            hc.open_doc(client, cpp_path)
            source = cpp_path.read_text()
            transcript["cpp"] = {"path": str(cpp_path), "bytes": len(source),
                                 "hiera_forward": "hiera_forward" in source}
            say(t0, f".cpp kernel {cpp_path.name}: {len(source)} bytes, hiera_forward "
                    f"{'defined' if 'hiera_forward' in source else 'MISSING'}")
            if "hiera_forward" not in source:
                problems.append(f"{cpp_path.name} does not define the contract's hiera_forward")
        cu_uri = next((u for u in created if u.endswith(".cu")), None)
        if cu_uri:
            cu_path = Path(to_fs_path(cu_uri) or "")
            hc.open_doc(client, cu_path)
            await rec.wait_for(lambda: bool(rec.diagnostics.get(cu_uri)), 10.0)
            if a.profile_kernel:
                pk = await client.workspace_execute_command_async(types.ExecuteCommandParams(
                    command="hiera.profileKernel", arguments=[cu_uri]))
                say(t0, f"Profile kernel -> {pk}")
                pid = pk.get("jobId") if isinstance(pk, dict) else None
                ok = await rec.wait_for(lambda: any(s.get("jobId") == pid and s["state"] in
                                                    ("finished", "failed", "cancelled") for s in rec.job_status),
                                        a.timeout)
                end = next((s for s in reversed(rec.job_status) if s.get("jobId") == pid), None)
                say(t0, f"Profile kernel job: {end['state'] if ok and end else 'did not end'}: "
                        f"{end['message'] if end else ''}")
                await rec.wait_for(lambda: bool(rec.diagnostics.get(cu_uri)), 10.0)
            transcript["cu_diagnostics"] = diag_lines(rec.diagnostics.get(cu_uri, []))
            say(t0, f".cu diagnostics ({len(transcript['cu_diagnostics'])}):")
            for d in transcript["cu_diagnostics"]:
                print(f"    {d}", flush=True)
            text = cu_path.read_text().splitlines()
            kline = next((i for i, t in enumerate(text) if "__global__" in t), None)
            if kline is not None:
                kh = await client.text_document_hover_async(types.HoverParams(
                    types.TextDocumentIdentifier(cu_uri), types.Position(kline, text[kline].find("__global__"))))
                transcript["kernel_hover"] = kh.contents.value if kh else None
                print("----- kernel hover -----\n" + (transcript["kernel_hover"] or "(none)")
                      + "\n------------------------", flush=True)
        if a.require_profile and not transcript.get("cu_diagnostics"):
            problems.append("no per-line diagnostics on the result .cu (no Nsight Compute profile reached the editor)")
        return 1 if problems else 0
    finally:
        await hc.stop(client)
        if a.out:
            Path(a.out).write_text(json.dumps(transcript, indent=1, default=str))
        for p in problems:
            print(f"FAIL: {p}", flush=True)
        if not problems:
            print("OK: optimize ran end to end through the language server", flush=True)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("workspace")
    p.add_argument("--file", required=True, help="the module file to open (inside the workspace)")
    p.add_argument("--class", dest="class_name", default="Model", help="the module class (default Model)")
    p.add_argument("--settings", default="{}", help='the `hiera` settings as JSON, e.g. \'{"rounds": 1}\'')
    p.add_argument("--timeout", type=float, default=1800.0, help="seconds to wait for the job")
    p.add_argument("--require-profile", action="store_true", help="fail without .cu diagnostics from ncu")
    p.add_argument("--profile-kernel", action="store_true", help="also run Profile kernel on the result .cu")
    p.add_argument("--out", default=None, help="write the transcript as JSON here")
    return asyncio.run(drive(p.parse_args()))


if __name__ == "__main__":
    sys.exit(main())
