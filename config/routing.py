"""Websocket routes; each app that serves websockets adds its patterns here."""

from django.urls import URLPattern, URLResolver, path

from apps.notifications.consumers import NotificationConsumer
from apps.play.consumers import GameConsumer

websocket_urlpatterns: list[URLPattern | URLResolver] = [
    path("ws/games/<int:game_id>/", GameConsumer.as_asgi()),
    path("ws/notifications/", NotificationConsumer.as_asgi()),
]
