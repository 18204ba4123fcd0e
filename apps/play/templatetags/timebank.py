"""`{% clock_panel game user %}`: the game page's clock: the rule in force, every player's time
bank (shown to everyone), and the extend vote."""

from typing import Any

from django import template

from apps.accounts.models import User
from apps.play.models import Game
from apps.play.timebank import banks_shown, extend_state
from apps.rooms.services import room_clock_in_force

register = template.Library()


@register.inclusion_tag("play/_timebank.html")
def clock_panel(game: Game, user: User) -> dict[str, Any]:
    if not isinstance(game, Game):  # a page drawn without the database (the board's harness)
        return {}
    reader = user if isinstance(user, User) else None
    return {
        "game": game,
        "clock_rule": room_clock_in_force(room=game.room),
        "banks": banks_shown(game=game) if not game.outcome else [],
        "extend": extend_state(game=game, user=reader),
    }
