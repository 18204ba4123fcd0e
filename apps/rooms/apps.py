from django.apps import AppConfig


class RoomsConfig(AppConfig):
    name = "apps.rooms"
    label = "rooms"
