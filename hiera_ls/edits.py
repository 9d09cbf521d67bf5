"""The result of a run as a workspace edit: new files beside the module, never overwriting one.

The engine writes its result files into a folder the server names (`--results-dir`, inside `.hiera/`);
the server re-creates them beside the module through `workspace/applyEdit` (CreateFile + TextDocumentEdit),
so the editor owns the change: it can be undone, and a client that refuses it leaves the disk untouched.
"""

from __future__ import annotations

from pathlib import Path

from lsprotocol import types

from hiera_ls.modules import ModuleClass


def result_stem(module_path: Path, module: ModuleClass | None) -> str:
    if module is None or module.kind == "kernelbench":
        return f"{module_path.stem}_hiera"
    return f"{module_path.stem}_{module.name}_hiera"


def free_targets(folder: Path, stem: str, suffixes: list[str], taken: set[Path]) -> list[Path]:
    """<stem>.py/.cu, or <stem>_2.py/.cu, ...: the first number at which no file of the set exists (`_2`, not
    `-2`: the result is a module to import, and a hyphen is not allowed in a module's name).

    `taken` holds paths open in the editor but not on disk yet (unsaved new buffers).
    """
    n = 1
    while True:
        tag = "" if n == 1 else f"_{n}"
        paths = [folder / f"{stem}{tag}{s}" for s in suffixes]
        if not any(p.exists() or p in taken for p in paths):
            return paths
        n += 1


def create_files_edit(files: list[tuple[Path, str]]) -> types.WorkspaceEdit:
    changes: list[types.TextDocumentEdit | types.CreateFile | types.RenameFile | types.DeleteFile] = []
    for path, text in files:
        uri = path.as_uri()
        # overwrite=False and ignoreIfExists=False: the client fails the edit rather than clobber a file.
        changes.append(types.CreateFile(uri=uri, options=types.CreateFileOptions(overwrite=False,
                                                                                 ignore_if_exists=False)))
        changes.append(types.TextDocumentEdit(
            text_document=types.OptionalVersionedTextDocumentIdentifier(uri=uri, version=None),
            edits=[types.TextEdit(range=types.Range(types.Position(0, 0), types.Position(0, 0)), new_text=text)]))
    return types.WorkspaceEdit(document_changes=changes)


def client_can_create_files(caps: types.ClientCapabilities) -> bool:
    ws = caps.workspace
    if ws is None or not ws.apply_edit:
        return False
    we = ws.workspace_edit
    if we is None:
        return False
    ops = we.resource_operations or []
    # Neovim advertises resourceOperations but not documentChanges, and applies both.
    return types.ResourceOperationKind.Create in ops
