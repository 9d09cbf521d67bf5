"""The `hiera` commands, one module each (engine/cli.py lists them in COMMANDS); each defines
`register(subparsers)`. What they share is common.py."""
