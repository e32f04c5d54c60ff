import sys

from jhooks.cli.main import main

# main() first: starting a JVM replaces sys.exit with one that records the status for the exit guard
# (jhooks.bridge.process.exit_guard), and `sys.exit(main())` would look up the original before that.
status = main()
sys.exit(status)
