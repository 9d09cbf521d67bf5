"""Entry point of `hiera-ls` (stdio)."""

import argparse

USAGE = """hiera-ls: the HIERA language server. It speaks the Language Server Protocol on stdin/stdout, so an
editor starts it (VS Code: the extension in editors/vscode; Neovim: tests/nvim/hiera.lua; any LSP client:
the command `hiera-ls`), not a person: run by hand it waits for LSP messages on stdin.

Logs go to stderr; HIERA_LS_LOG=DEBUG logs every message. More: hiera_ls/README.md."""


def main() -> None:
    # Only the help is parsed: clients add their own flags (vscode-languageclient passes --stdio), which a
    # stdio server takes as it is.
    parser = argparse.ArgumentParser(prog="hiera-ls", description=USAGE,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.parse_known_args()
    from hiera_ls.server import main as run

    run()


if __name__ == "__main__":
    main()
