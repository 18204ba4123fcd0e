"""What happens to a hero: wounds and healing, gold, spell cards, chests, falling (rules 7.5,
9.1, 11, 15)."""

from __future__ import annotations

from .board import board
from .context import Ctx
from .data import CHEST_CONTENT_TEXT, ITEMS, LIST_PRICES
from .events import plural
from .moves import free_corridors
from .state import Hero, State


def hurt(hero: Hero, amount: int, *, floor: int = 0) -> int:
    """Take `amount` Stamina, never below `floor`; returns what was lost."""
    lost = max(0, min(amount, hero.stamina - floor))
    hero.stamina -= lost
    return lost


def heal(hero: Hero, amount: int) -> int:
    gained = max(0, min(amount, hero.stamina_max - hero.stamina))
    hero.stamina += gained
    return gained


def take_gold(hero: Hero, amount: int) -> int:
    taken = min(amount, hero.gold)
    hero.gold -= taken
    return taken


# --- spell cards --------------------------------------------------------------------------------
def draw_card(ctx: Ctx) -> str | None:
    s = ctx.s
    if not s.deck and s.discards:
        s.deck = s.discards
        s.discards = []
        ctx.dice.shuffle(s.deck)
        ctx.emit("deck", "The spell deck runs out: the discards are shuffled into a new deck.")
    return s.deck.pop() if s.deck else None


def draw_spells(ctx: Ctx, hero: Hero, count: int | None = None) -> int:
    """Draw up to the hand limit (or `count` cards, never past the limit)."""
    room = hero.hand_limit - len(hero.spells)
    wanted = room if count is None else min(count, room)
    drawn: list[str] = []
    for _ in range(max(0, wanted)):
        card = draw_card(ctx)
        if card is None:
            break
        hero.spells.append(card)
        drawn.append(card)
    if drawn:
        ctx.private(
            hero,
            "spell_drawn",
            f"{hero.short} draws {', '.join(drawn)}.",
            f"{hero.short} draws {plural(len(drawn), 'spell card')}.",
            hero=hero.hero,
            spells=drawn,
        )
    return len(drawn)


def discard_spell(ctx: Ctx, hero: Hero, spell: str) -> None:
    hero.spells.remove(spell)
    ctx.s.discards.append(spell)


def discard_all_spells(ctx: Ctx, hero: Hero) -> int:
    count = len(hero.spells)
    ctx.s.discards.extend(hero.spells)
    hero.spells = []
    return count


# --- chests (rules 11, 15) ----------------------------------------------------------------------
def holds_orb(s: State, hero: Hero) -> bool:
    return any(s.chest(c) == "orb" for c in hero.chests)


def keep_chests(ctx: Ctx, hero: Hero, cards: list[int], source: str) -> None:
    """`hero` wins chest cards: opened at once in the tales, kept (content private) in the full
    game; past the carrying limit they go to the pile beside the Dragon's Cave."""
    s = ctx.s
    level = hero.level
    for card in cards:
        content = s.chest(card)
        if content == "gold":
            amount = 4 if s.chest_mode == "spectre" and level == 2 else 2
            hero.gold += amount
            ctx.emit("chest", f"{hero.short} opens a chest from {source}: {amount} gold.")
            continue
        if content == "spirit":
            hero.chests.append(card)
            ctx.voice(
                f"The chest howls! {hero.name} has found the Spirit of Tallistor.",
                hero=hero.hero,
            )
            s.outcome = f"hero:{hero.hero}"
            return
        if len(hero.chests) >= hero.chest_limit:
            s.chest_pile.append(card)
            ctx.emit(
                "chest",
                f"{hero.short} cannot carry another chest: it goes beside the Dragon's Cave.",
            )
            continue
        hero.chests.append(card)
        if content == "orb":
            ctx.voice(f"{hero.name} has found the Enchanted Orb!", hero=hero.hero)
        else:
            ctx.private(
                hero,
                "chest",
                f"{hero.short} takes a chest from {source}: {CHEST_CONTENT_TEXT[content]}.",
                f"{hero.short} takes a chest from {source}.",
                hero=hero.hero,
            )


def pick_chest(ctx: Ctx, hero: Hero, *, spare_orb: bool) -> int | None:
    """A chest card of `hero`'s drawn at random; the Orb when it is all he has (unless spared)."""
    cards = [c for c in hero.chests if not (spare_orb and ctx.s.chest(c) == "orb")]
    if not cards:
        return None
    orb = [c for c in cards if ctx.s.chest(c) == "orb"]
    if orb and not spare_orb:
        return orb[0]  # the Orb is public: whoever takes a chest takes the Orb (rules 8.4)
    return cards[ctx.dice.below(len(cards), "chest")]


# --- losses and falling (rules 7.5, 8.5) --------------------------------------------------------
def cheapest_item(hero: Hero) -> str | None:
    owned = [i for i in ITEMS if i in hero.items]
    if not owned:
        return None
    return min(owned, key=lambda i: (LIST_PRICES[i], ITEMS.index(i)))


def dearest_item(hero: Hero) -> str | None:
    owned = [i for i in ITEMS if i in hero.items]
    if not owned:
        return None
    return max(owned, key=lambda i: (LIST_PRICES[i], -ITEMS.index(i)))


def lose_one_thing(ctx: Ctx, hero: Hero) -> None:
    item = cheapest_item(hero)
    if item is not None:
        hero.items.remove(item)
        ctx.emit("loss", f"{hero.short} leaves his {item} behind.", hero=hero.hero)
        return
    card = pick_chest(ctx, hero, spare_orb=True)
    if card is not None:
        hero.chests.remove(card)
        ctx.s.chest_pile.append(card)
        ctx.emit("loss", f"{hero.short} drops a chest; it goes beside the Dragon's Cave.")
        return
    ctx.emit("loss", f"{hero.short} has nothing to lose.", hero=hero.hero)


START_SPACES = ("s1", "s2", "s3", "s4")


def free_start(s: State, hero: Hero) -> str:
    """His own start space, else the next free one in seat order (rules 7.5); four starts always
    leave one free for the fourth hero."""
    own = START_SPACES.index(hero.start)
    ring = START_SPACES[own:] + START_SPACES[:own]
    return next(sp for sp in ring if s.hero_at(sp) in (None, hero))


def send_to_start(ctx: Ctx, hero: Hero, *, miss_turn: bool) -> None:
    hero.space = free_start(ctx.s, hero)
    hero.stamina = hero.stamina_max
    if miss_turn:
        hero.miss_turns += 1
    where = board().spaces[hero.space].name
    tail = " and misses his next turn" if miss_turn else ""
    ctx.emit("fall", f"{hero.short} is carried back to {where}{tail}.", hero=hero.hero)


def blow_away(ctx: Ctx, hero: Hero, why: str) -> None:
    """Send `hero` to a random free corridor space of his level (its tile is not revealed)."""
    spaces = free_corridors(ctx.s, hero.level)
    if not spaces:
        return
    hero.space = spaces[ctx.dice.below(len(spaces), "teleport")]
    ctx.emit(
        "moved", f"{why} {hero.short} lands elsewhere on the level.", hero=hero.hero, to=hero.space
    )
