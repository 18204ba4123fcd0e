"""Run in the site's own environment (a subprocess pointed at the browser test's database): Ada's
campaign wins the Ashen Vault through the real services, Bo playing the heroes, so that the
browser test starts between the first and the second quest.

    python -m tests.browser.campaign_setup ada bo   # prints {"campaign": <id>}
"""

from __future__ import annotations

import json
import sys


def main(owner_name: str, player_name: str) -> None:
    import django

    django.setup()

    from apps.accounts.models import User
    from apps.campaigns import services
    from apps.play.services import game_launch
    from apps.rooms.services import room_seat_take
    from tests.campaigns.quest_ends import win

    owner = User.objects.get(username=owner_name)
    player = User.objects.get(username=player_name)
    campaign = services.campaign_create(owner=owner, name="The Ember Road")
    room = services.campaign_room_create(
        campaign=campaign, host=owner, name="Into the Ashen Vault", seat_count=2
    )
    room_seat_take(room_id=room.pk, user=owner, number=1)
    room_seat_take(room_id=room.pk, user=player, number=2, invite_code=room.invite_code)
    game = game_launch(room_id=room.pk, user=owner, seed=7)
    win(game, found={"barbarian": {"gold": 100}})
    print(json.dumps({"campaign": campaign.pk}))


if __name__ == "__main__":
    main(*sys.argv[1:3])
