"""The voice of Zagor (docs/zagor/rules.md section 13): Random events, the score, commands."""

from __future__ import annotations

from .combat import start_summoned
from .context import Ctx
from .data import COMMAND_CHANCE, PUNISHMENTS, RANDOM_EVENTS, REWARDS
from .heroes import blow_away, draw_spells, heal, hurt, keep_chests, take_gold
from .state import Hero, State

SUMMONED = "summoned"  # an order: a monster attacks at the start of the hero's next turn


def random_event(ctx: Ctx) -> None:
    """A Random tile (rules 13.2): the unit picks a hero and an event."""
    s = ctx.s
    candidates = [h for h in (s.heroes[x] for x in s.order) if not h.in_crypt]
    if not candidates:
        return
    target = candidates[ctx.dice.below(len(candidates), "voice")]
    event = RANDOM_EVENTS[ctx.dice.below(len(RANDOM_EVENTS), "voice")]
    name = target.name
    if event == "Earthquake":
        ctx.voice("Earthquake! Every hero outside my crypt loses 1 Stamina.", event=event)
        for h in candidates:
            hurt(h, 1, floor=1)
    elif event == "Gold rain":
        target.gold += 5
        ctx.voice(f"{name}, gold rains on you: 5 gold.", event=event, hero=target.hero)
    elif event == "Curse":
        hurt(target, 2, floor=1)
        ctx.voice(f"I curse you, {name}: lose 2 Stamina.", event=event, hero=target.hero)
    elif event == "Blessing":
        heal(target, target.stamina_max)
        ctx.voice(f"{name}, be whole again, for now.", event=event, hero=target.hero)
    elif event == "Thief":
        lost = take_gold(target, 3)
        ctx.voice(f"A thief robs {name} of {lost} gold.", event=event, hero=target.hero)
    elif event == "Whirlwind":
        ctx.voice(f"A whirlwind seizes {name}!", event=event, hero=target.hero)
        blow_away(ctx, target, "The wind drops.")
    elif event == "Spell storm":
        ctx.voice(f"A storm of magic around {name}.", event=event, hero=target.hero)
        draw_spells(ctx, target)
    elif event == "Wandering monster":
        target.orders.append(SUMMONED)
        ctx.voice(
            f"{name}, a monster hunts you: it finds you next turn.", event=event, hero=target.hero
        )
    elif event == "Paralysis":
        target.no_move_next = True
        ctx.voice(
            f"{name}, your legs turn to stone: no move next turn.", event=event, hero=target.hero
        )
    else:
        ctx.voice(f"{name}, a treasure for you.", event=event, hero=target.hero)
        if s.chest_mode == "crypt" and s.chest_supply:
            keep_chests(ctx, target, [s.chest_supply.pop()], "the voice's gift")
        else:
            target.gold += 2
            ctx.emit("gold", f"{target.short} gains 2 gold.")


# --- commands (rules 13.3, 13.4) ----------------------------------------------------------------
def play_order_from(s: State, hero: str) -> list[str]:
    """Heroes in the order they play, starting with the one after `hero`."""
    i = s.order.index(hero)
    return s.order[i + 1 :] + s.order[: i + 1]


def command_target(s: State) -> tuple[Hero, bool] | None:
    """The hero the voice commands and whether it is a punishment (rules 13.4)."""
    candidates = [s.heroes[h] for h in play_order_from(s, s.turn.hero) if not s.heroes[h].orders]
    if not candidates:
        return None
    lowest = min(candidates, key=lambda h: h.score)  # min keeps the first: the soonest to play
    if lowest.score < 0:
        return lowest, True
    return max(candidates, key=lambda h: h.score), False


def maybe_command(ctx: Ctx) -> None:
    s = ctx.s
    quiet = s.quiet_turns >= len(s.heroes) + 1
    if not quiet and ctx.dice.below(COMMAND_CHANCE, "voice") != 0:
        return
    chosen = command_target(s)
    if chosen is None:
        return
    hero, punish = chosen
    table = PUNISHMENTS if punish else REWARDS
    command = table[ctx.dice.below(len(table), "voice")]
    hero.orders.append(command)
    s.quiet_turns = 0
    ctx.voice(
        f"{hero.name}! {command} (at your next turn)",
        command=command,
        hero=hero.hero,
        punishment=punish,
        score=hero.score,
    )


def carry_out_orders(ctx: Ctx, hero: Hero) -> None:
    """At the start of `hero`'s turn: every order waiting for him, a fight last."""
    orders, hero.orders = hero.orders, []
    fight = False
    for order in orders:
        if order in (SUMMONED, "Fight my servant!"):
            fight = True
        elif order == "Stand still!":
            ctx.s.turn.moves = []
            ctx.voice(f"{hero.name}, stand still!")
        elif order == "Pay tribute!":
            lost = take_gold(hero, 3)
            ctx.voice(f"{hero.name} pays me {lost} gold.")
        elif order == "Bleed!":
            hurt(hero, 2, floor=1)
            ctx.voice(f"{hero.name}, bleed! Lose 2 Stamina.")
        elif order == "Take my gold":
            hero.gold += 4
            ctx.voice(f"{hero.name}, take 4 gold. Fight well.")
        elif order == "Be healed":
            heal(hero, hero.stamina_max)
            ctx.voice(f"{hero.name}, be healed.")
        elif order == "Run!":
            ctx.s.turn.moves.append(0)
            ctx.voice(f"{hero.name}, run! Move twice this turn.")
        elif order == "A gift of magic":
            ctx.voice(f"{hero.name}, a gift of magic.")
            draw_spells(ctx, hero)
    if fight:
        start_summoned(ctx, hero)
