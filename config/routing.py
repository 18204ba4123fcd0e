"""Websocket routes; each app that serves websockets adds its patterns here."""

from django.urls import URLPattern, URLResolver, path

from apps.notifications.consumers import NotificationConsumer
from apps.play.consumers import GameConsumer, LobbyConsumer
from apps.rooms.consumers import RoomConsumer

websocket_urlpatterns: list[URLPattern | URLResolver] = [
    path("ws/games/<int:game_id>/", GameConsumer.as_asgi()),
    path("ws/notifications/", NotificationConsumer.as_asgi()),
    path("ws/rooms/<int:room_id>/", RoomConsumer.as_asgi()),
    path("ws/lobby/", LobbyConsumer.as_asgi()),
]
