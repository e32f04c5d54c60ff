"""The command line: ``python -m jhooks`` (argparse subcommands, one module each)."""
