from django.apps import AppConfig


class PlayConfig(AppConfig):
    name = "apps.play"
    label = "play"
