"""The notifications websocket (`/ws/notifications/`): a logged-in user's live notifications.

The consumer joins the user's own group (`user-<id>`), which carries only that user's
notifications (title, body, link). Frames sent: `{"type": "notification", "title", "body",
"url", "read"}` (`read`: it arrived already read, its game being open), `{"type": "pong"}` and
`{"type": "error", "error"}` (a frame that is not JSON); frames accepted: `{"type": "ping"}`.
"""

import json
from typing import Any

from channels.generic.websocket import AsyncJsonWebsocketConsumer

from apps.core.realtime import user_group

CLOSE_FORBIDDEN = 4403  # anonymous


class NotificationConsumer(AsyncJsonWebsocketConsumer):
    group: str | None = None

    async def connect(self) -> None:
        user = self.scope.get("user")
        # Accept first so that the close code reaches the client (a refused handshake loses it).
        await self.accept()
        if user is None or not user.is_authenticated:
            await self.close(code=CLOSE_FORBIDDEN)
            return
        self.group = user_group(user_id=user.pk)
        await self.channel_layer.group_add(self.group, self.channel_name)

    async def disconnect(self, code: int) -> None:
        if self.group is not None:
            await self.channel_layer.group_discard(self.group, self.channel_name)
            self.group = None

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """Decode a frame; one that is not JSON gets an error frame, not a crashed socket."""
        if self.group is None:
            return
        try:
            content = json.loads(text_data or "")
        except (ValueError, RecursionError):  # RecursionError: nested thousands deep
            await self.send_json({"type": "error", "error": "Send JSON text frames."})
            return
        await self.receive_json(content)

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        if self.group is not None and isinstance(content, dict) and content.get("type") == "ping":
            await self.send_json({"type": "pong"})

    async def notification_new(self, message: dict[str, Any]) -> None:
        await self.send_json(
            {
                "type": "notification",
                "title": message.get("title", ""),
                "body": message.get("body", ""),
                "url": message.get("url", ""),
                "read": bool(message.get("read", False)),
            }
        )
