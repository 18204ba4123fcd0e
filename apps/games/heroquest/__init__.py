"""HeroQuest's wing: the pure rules engine (``engine``), its quests (``quests``), its face."""
