"""`python -m newsdesk`: the `newsdesk` command, where the installed script is not on the PATH."""

import sys

from newsdesk.cli import main

sys.exit(main())
