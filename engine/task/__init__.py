"""The task module as the engine sees it: loading it in a process of its own (spec.py, probe.py, source.py), the
C ABI a kernel is built against (contract.py, kernel_build.py), the file handed back to the user (export.py,
hidden_text.py), and what each implementation space may call (spaces.py, libraries.py).

Engine code only: the language server never reads these (contracts/ holds what both sides exchange; the rule is
tests/test_layers.py's). Keep this package's import light: `python -m engine.task.probe` starts here in the
task's own interpreter."""
