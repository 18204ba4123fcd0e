"""The room page's websocket (`/ws/rooms/<id>/`): content-free pokes when the room changes.

Seats filling or emptying, the launch, the end of the quest: the consumer only sends
`{"type": "changed"}` and the page fetches itself again, so a socket never carries more than the
page would show its user. Who may listen is checked when the socket connects (anyone logged in
while the room is open, its members afterwards). Frames accepted: `{"type": "ping"}`.
"""

from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer

from apps.core.realtime import room_group
from apps.rooms.models import Room
from apps.rooms.services import room_visible_to

CLOSE_FORBIDDEN = 4403  # anonymous, or the room is not theirs to see


def _visible_room(room_id: int, user: Any) -> bool:
    room = Room.objects.filter(pk=room_id).first()
    return room is not None and room_visible_to(room=room, user=user)


class RoomConsumer(AsyncJsonWebsocketConsumer):
    group: str | None = None

    async def connect(self) -> None:
        room_id = int(self.scope["url_route"]["kwargs"]["room_id"])
        user = self.scope.get("user")
        if user is None or not await database_sync_to_async(_visible_room)(room_id, user):
            # Accept, then close: the close code reaches the client (a refused handshake loses it).
            await self.accept()
            await self.close(code=CLOSE_FORBIDDEN)
            return
        # Join before accepting: once the socket is open, no change can slip past it.
        self.group = room_group(room_id=room_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        if self.group is not None:
            await self.channel_layer.group_discard(self.group, self.channel_name)
            self.group = None

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        if self.group is not None and isinstance(content, dict) and content.get("type") == "ping":
            await self.send_json({"type": "pong"})

    async def room_changed(self, message: dict[str, Any]) -> None:
        await self.send_json({"type": "changed"})
