"""Command-line subcommands. Each module exposes `register(subparsers)`, which adds its parser
and sets `func(args) -> int` as the handler."""
