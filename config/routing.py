"""Websocket routes; each app that serves websockets adds its patterns here."""

from django.urls import URLPattern, URLResolver

websocket_urlpatterns: list[URLPattern | URLResolver] = []
