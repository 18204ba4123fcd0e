from django.apps import AppConfig


class QuestsConfig(AppConfig):
    name = "apps.quests"
    label = "quests"
