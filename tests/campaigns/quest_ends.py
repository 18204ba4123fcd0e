"""Ending a campaign quest quickly: the stored engine state is moved to the brink of an ending,
then the last step is a real action through `quest_apply_action` (so the outcome is decided by
the engine and written back to the sheets by the real services, in the real transaction).

The games are 2-seat rooms: seat 1 Zargon, seat 2 every hero. No step rolls a die.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

from apps.games.heroquest import engine as rules
from apps.games.heroquest.engine.geometry import ORTHOGONAL, step
from apps.play.models import Game
from apps.play.selectors import game_state
from apps.play.services import quest_apply_action

HERO_SEAT = 2


def edit_state(game: Game, change: Callable[[rules.State], None]) -> None:
    """Change the stored engine state directly (to reach a quest's end quickly)."""
    game.refresh_from_db()
    state = game_state(game=game)
    change(state)
    game.state = state.to_json()
    game.save(update_fields=["state"])


def act(game: Game, action: dict[str, Any]) -> dict[str, Any]:
    game.refresh_from_db()
    response: dict[str, Any] = quest_apply_action(
        game_id=game.pk,
        seat=HERO_SEAT,
        action=action,
        expected_version=game.version,
        key=uuid.uuid4().hex,
    )
    game.refresh_from_db()
    return response


def _last_one_out(
    game: Game,
    *,
    villain_defeated: bool,
    fallen: tuple[str, ...] = (),
    found: dict[str, dict[str, Any]] | None = None,
) -> str:
    """Everyone but the hero to move has escaped (or fallen, if in `fallen`); that hero stands
    on the stairway. `found`: what heroes picked up during the quest (gold, potions, artifacts).
    Returns the hero who escapes last."""
    hero = ""

    def change(s: rules.State) -> None:
        nonlocal hero
        hero = str(s.turn.hero)
        assert hero not in fallen, "the hero to move escapes last"
        s.villain_defeated = villain_defeated
        for name, h in s.heroes.items():
            for attr, value in (found or {}).get(name, {}).items():
                setattr(h, attr, value)
            if name == hero:
                h.position = min(s.quest.stairway)
            elif name in fallen:
                h.position, h.status, h.body = None, "fallen", 0
            else:
                h.position, h.status = None, "escaped"

    edit_state(game, change)
    act(game, {"type": "escape", "hero": hero})
    return hero


def win(
    game: Game,
    fallen: tuple[str, ...] = (),
    found: dict[str, dict[str, Any]] | None = None,
) -> str:
    """The villain is down; the last hero escapes: the heroes win."""
    hero = _last_one_out(game, villain_defeated=True, fallen=fallen, found=found)
    assert game.outcome == "heroes", game.outcome
    return hero


def retreat(game: Game, found: dict[str, dict[str, Any]] | None = None) -> str:
    """The villain lives; the last hero goes up the stairway: the quest ends as a retreat."""
    hero = _last_one_out(game, villain_defeated=False, found=found)
    assert game.outcome == "retreat", game.outcome
    return hero


def lose(game: Game) -> str:
    """Every other hero has fallen; the last one, at 1 Body and without potions, steps onto an
    armed pit trap (1 Body lost, no dice): no living hero remains and Zargon wins."""
    state = game_state(game=game)
    hero = str(state.turn.hero)
    pit = next(t for t in state.quest.traps if t.kind == "pit" and t.square is not None)
    assert pit.square is not None
    for direction in ORTHOGONAL:
        beside = step(pit.square, direction)

        def brink(s: rules.State, beside: tuple[int, int] = beside) -> None:
            for name, h in s.heroes.items():
                if name == hero:
                    h.position, h.body, h.potions = beside, 1, 0
                else:
                    h.position, h.status, h.body = None, "fallen", 0
            s.turn.movement_rolled, s.turn.movement_left = True, 3

        edit_state(game, brink)
        legal = rules.legal_actions(game_state(game=game), HERO_SEAT)
        if any(isinstance(a, rules.Move) and tuple(a.to) == pit.square for a in legal):
            break
    act(game, {"type": "move", "hero": hero, "to": list(pit.square)})
    assert game.outcome == "zargon", game.outcome
    return hero
