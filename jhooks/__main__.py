import sys

from jhooks.cli.main import main

sys.exit(main())
