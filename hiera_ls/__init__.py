"""hiera-ls: the language server, a thin adapter from LSP to engine calls."""
