import sys

from apps.games.heroquest.engine.questfile.cli import main

sys.exit(main())
