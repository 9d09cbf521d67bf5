"""The `hiera.*` commands: check the request, describe a Job, hand it to the JobManager, return at once.

What could make a job pointless is checked here, before anything starts, and told to the user with what to
do (a class without inputs, a `.cu` that is not from a run, no CUDA device where one was asked for, a file
outside the workspace folders). Arguments of the wrong shape are the client's mistake, not the user's:
they are `BadArguments`, answered as Invalid Params without a message to the user.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lsprotocol import types

from contracts.device import CPU, Device
from hiera_ls.engine_command import engine_env, optimize_argv, profile_argv
from hiera_ls.files import FileRefused, read_text
from hiera_ls.job import Job, JobError, JobKind, new_job_id
from hiera_ls.modules import ANNOTATION_HELP, ModuleClass
from hiera_ls.settings import SPACES, Settings
from hiera_ls.taskfile import write_task
from hiera_ls.wording import space_title

if TYPE_CHECKING:
    from hiera_ls.hiera_server import HieraServer

log = logging.getLogger(__name__)


class CommandError(JobError):
    """A request the user has to change; the message says how."""


class BadArguments(Exception):
    """Arguments no client following docs/protocol.md §3 sends (a URI that is not a string, no class name)."""


OUTSIDE_CONFIRM = "Optimize anyway"


@dataclass(frozen=True)
class Target:
    path: Path
    uri: str
    module: ModuleClass
    source: str  # the saved file's text: the engine reads the file, not the editor's buffer


def _arg(args: tuple[Any, ...], i: int, key: str) -> Any:
    """Arguments come positionally (protocol.md) or, from some clients, as one object."""
    if len(args) == 1 and isinstance(args[0], dict):
        return args[0].get(key)
    return args[i] if len(args) > i else None


def uri_to_path(uri: Any) -> Path:
    if not isinstance(uri, str):
        raise BadArguments(f"expected a file URI string as the first argument, got {uri!r}")
    if not uri.startswith("file:"):
        raise CommandError(f"HIERA: expected a file URI, got {uri!r}")
    from pygls.uris import to_fs_path

    try:
        fs = to_fs_path(uri)
        path = Path(fs).resolve() if fs else None
    except (ValueError, OSError) as e:
        raise CommandError(f"HIERA: cannot map {uri} to a file on this machine ({e})") from e
    if path is None:
        raise CommandError(f"HIERA: cannot map {uri} to a file on this machine")
    return path


async def read_source(path: Path) -> str:
    """A module's or kernel's text: a regular file of bounded size (never /dev/zero, never a FIFO)."""
    try:
        return await asyncio.to_thread(read_text, path)
    except FileRefused as e:
        raise CommandError(f"HIERA: cannot read {path.name}: {e}") from e


async def confirm_outside(ls: HieraServer, path: Path) -> None:
    """A file outside every workspace folder runs only when the user says so in the editor (and never where
    the client cannot ask): the engine executes the module's code."""
    if ls.index.contains(path):
        return
    caps = ls.client_capabilities.window
    if caps is not None and caps.show_message is not None:
        try:
            answer = await ls.window_show_message_request_async(types.ShowMessageRequestParams(
                type=types.MessageType.Warning,
                message=f"HIERA: {path} is outside the workspace folders. The engine runs the module's code: "
                        "optimize it anyway?",
                actions=[types.MessageActionItem(OUTSIDE_CONFIRM), types.MessageActionItem("Cancel")]))
        except Exception as e:  # the client could not ask
            log.warning("showMessageRequest failed: %s", e)
            answer = None
        if answer is not None and answer.title == OUTSIDE_CONFIRM:
            return
    raise CommandError(f"HIERA: {path.name} is outside the workspace folders ({path.parent}); add its folder to "
                       "the workspace to optimize it")


async def _target(ls: HieraServer, uri: Any, class_name: Any) -> Target:
    path = uri_to_path(uri)
    if not isinstance(class_name, str) or not class_name:
        raise BadArguments("which class? The command takes the module class name as its second argument")
    source = await read_source(path)
    scan = await ls.parse(source)
    module = scan.by_name(class_name)
    if module is None:
        unsaved = ls.document_text(path)
        if unsaved is not None and (await ls.parse(unsaved)).by_name(class_name):
            raise CommandError(f"HIERA: {class_name} is not in the saved {path.name}; save the file, then run again")
        raise CommandError(f"HIERA: no module class {class_name} in {path.name} (hiera optimizes nn.Module "
                           "subclasses with inputs; see the README)")
    if scan.is_result:
        raise CommandError(f"HIERA: {path.name} defines ModelNew, so it is a result; optimize the original module")
    if not module.optimizable:
        raise CommandError(f"HIERA: cannot optimize {class_name}: {module.problem}. To fix: {ANNOTATION_HELP}")
    await confirm_outside(ls, path)
    unsaved = ls.document_text(path)
    if unsaved is not None and unsaved != source:
        ls.show(types.MessageType.Warning, f"HIERA: {path.name} has unsaved changes; hiera runs the saved file")
    return Target(path, path.as_uri(), module, source)


async def resolve_device(ls: HieraServer, settings: Settings) -> Device:
    """The device a job runs on: hiera.device, with "auto" resolved here, once, by the CUDA check of the
    interpreter the engine runs in (a CUDA device 0 where it sees one, else the CPU). The engine is given the
    resolved device, so the job's queue (one job per device at a time) and the run agree on it."""
    try:
        wanted = None if settings.device == "auto" else Device.parse(settings.device)
    except ValueError as e:
        raise CommandError(f"HIERA: hiera.device is {settings.device!r}: {e}") from None
    if wanted is not None and not wanted.is_cuda:
        return wanted
    ok, detail = await ls.cuda.check()
    if wanted is None:
        if not ok:
            ls.tell_no_cuda_once(detail)
            return CPU
        return Device("cuda", 0)
    if not ok:
        raise CommandError(f"HIERA: hiera.device is {settings.device!r} but no CUDA device is visible ({detail}). "
                           "Set hiera.device to \"auto\" or \"cpu\", or point hiera.interpreter at a CUDA build of "
                           "PyTorch")
    return wanted


def _new_job(ls: HieraServer, kind: JobKind, title: str, root: Path, **kw: Any) -> Job:
    job_id = new_job_id(kind)
    return Job(id=job_id, kind=kind, title=title, argv=[], root=root, device="pending",
               env=engine_env(root), log_path=root / ".hiera" / "logs" / f"{job_id}.log", **kw)


async def optimize(ls: HieraServer, *args: Any) -> dict[str, Any] | None:
    t = await _target(ls, _arg(args, 0, "uri"), _arg(args, 1, "className"))
    options = _arg(args, 2, "options") or {}
    if not isinstance(options, dict):
        raise BadArguments(f"the options argument should be an object, got {options!r}")
    space = options.get("space") or None
    if space not in (None, "auto", *SPACES):
        raise BadArguments(f"unknown space {space!r}; use one of auto, {', '.join(SPACES)}")
    running = ls.jobs.for_module(t.path, t.module.name)
    if running is not None:
        ls.show(types.MessageType.Info, f"HIERA: {t.module.name} is already being optimized (job {running.id}); "
                                        "cancel it first to start another run")
        return {"jobId": running.id, "state": running.state}
    settings = ls.settings
    root = ls.index.root_of(t.path)
    in_space = f" in {space_title(space, 'cpu' if ls.expects_cpu() else 'cuda')}" if space in SPACES else ""
    job = _new_job(ls, "optimize", f"HIERA: optimizing {t.module.name}{in_space}", root, uri=t.uri, path=t.path,
                   class_name=t.module.name)
    job.results_dir = root / ".hiera" / "ls" / "results" / job.id

    async def prepare(job: Job) -> None:
        task = await asyncio.to_thread(write_task, root, t.path, t.source, t.module)
        device = await resolve_device(ls, settings)
        job.device = str(device)
        job.argv = optimize_argv(settings, task, root, space, job.results_dir, device)

    job.prepare = prepare
    ls.jobs.submit(job)
    return {"jobId": job.id, "state": job.state}


async def refuse_on_cpu(ls: HieraServer, settings: Settings, what: str) -> None:
    """Nsight Compute profiles CUDA kernels: on a workspace whose jobs run on the CPU a profile job could only
    fail (and a failed job would replace the last result in the editor's views), so it is refused, saying why."""
    if settings.device == "cpu" or (settings.device == "auto" and not (await ls.cuda.check())[0]):
        raise CommandError(f"HIERA: {what} needs a CUDA device: Nsight Compute profiles CUDA kernels, and this "
                           f"workspace's jobs run on the CPU (hiera.device is {settings.device!r})")


async def profile(ls: HieraServer, *args: Any) -> dict[str, Any] | None:
    t = await _target(ls, _arg(args, 0, "uri"), _arg(args, 1, "className"))
    settings = ls.settings
    await refuse_on_cpu(ls, settings, f"profiling {t.module.name}")
    root = ls.index.root_of(t.path)
    job = _new_job(ls, "profile", f"HIERA: profiling {t.module.name} with Nsight Compute", root, uri=t.uri,
                   path=t.path, class_name=t.module.name)

    async def prepare(job: Job) -> None:
        task = await asyncio.to_thread(write_task, root, t.path, t.source, t.module)
        device = await resolve_device(ls, settings)
        job.device = str(device)
        job.argv = profile_argv(settings, task, root, None, device)

    job.prepare = prepare
    ls.jobs.submit(job)
    return {"jobId": job.id, "state": job.state}


async def profile_kernel(ls: HieraServer, *args: Any) -> dict[str, Any] | None:
    path = uri_to_path(_arg(args, 0, "uri"))
    if path.suffix != ".cu":
        raise CommandError(f"HIERA: Profile kernel takes a .cu file, not {path.name}")
    origin = ls.index.cu_origin(path)
    if origin is None or not origin.task:
        raise CommandError(f"HIERA: {path.name} is not from a hiera run, so there is no task to run it against; "
                           "profile the module instead (Profile with Nsight Compute on its class)")
    if not Path(origin.task).exists():
        raise CommandError(f"HIERA: the task of {path.name}'s run ({origin.task}) is gone; run Optimize again")
    settings = ls.settings
    await refuse_on_cpu(ls, settings, f"profiling {path.name}")
    text = await read_source(path)
    names = [k.name for k in await ls.kernels_of(path, text)]
    job = _new_job(ls, "profileKernel", f"HIERA: profiling {names[0] if names else path.name} with Nsight Compute",
                   origin.root, uri=path.as_uri(), path=path)

    async def prepare(job: Job) -> None:
        device = await resolve_device(ls, settings)
        job.device = str(device)
        job.argv = profile_argv(settings, Path(origin.task), origin.root, path, device)

    job.prepare = prepare
    ls.jobs.submit(job)
    return {"jobId": job.id, "state": job.state}


async def cancel(ls: HieraServer, *args: Any) -> dict[str, Any]:
    job_id = _arg(args, 0, "jobId")
    if job_id is not None and not isinstance(job_id, str):
        raise BadArguments(f"hiera.cancel takes a job id string, got {job_id!r}")
    if job_id is not None and job_id not in ls.jobs.jobs:
        raise CommandError(f"HIERA: no job {job_id}")
    done = ls.jobs.cancel(job_id)
    if not any(j.cancel_requested for j in done):
        ls.show(types.MessageType.Info, "HIERA: no job is running")
    return {"cancelled": [j.id for j in done if j.cancel_requested]}
