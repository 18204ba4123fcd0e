import sys

from apps.rules.questfile.cli import main

sys.exit(main())
