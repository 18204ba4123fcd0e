"""Read-only questions about a state's board: who stands where, what blocks, who sees whom.

A `Board` caches its answers, so make a new one after changing the state.
"""

from __future__ import annotations

from functools import cached_property

from .data import WEAPONS
from .geometry import Geometry, geometry, is_diagonal_neighbour, is_orthogonal_neighbour
from .options import rules_revision
from .quest import Square
from .state import HeroState, MonsterState, State


class Board:
    def __init__(self, state: State) -> None:
        self.s = state
        self.geo: Geometry = geometry(state.quest)
        self._seen_monsters: dict[Square, list[MonsterState]] = {}
        self._seen_heroes: dict[Square, list[HeroState]] = {}

    @cached_property
    def diagonal_attacks(self) -> bool:
        return str(self.s.options.get("edition", "us")) != "uk"

    @cached_property
    def distance_attacks(self) -> bool:
        """UK rules: an attacker stands in one of the four adjacent squares, so no weapon
        attacks from a distance (docs/rules.md 10, "The UK edition and ranged weapons")."""
        return self.diagonal_attacks or rules_revision(self.s) < 2

    def adjacent_target(self, a: Square, b: Square) -> bool:
        """`b` is in one of the four squares beside `a`, through an open edge."""
        return is_orthogonal_neighbour(a, b) and self.edge_open(a, b)

    @cached_property
    def open_edges(self) -> frozenset[int]:
        geo = self.geo
        return frozenset(geo.edge_of_door[d] for d, ds in self.s.doors.items() if ds.open)

    @cached_property
    def heroes_at(self) -> dict[Square, HeroState]:
        return {
            h.position: h for h in self.s.heroes.values() if h.playing and h.position is not None
        }

    @cached_property
    def monsters_at(self) -> dict[Square, MonsterState]:
        return {
            m.position: m for m in self.s.monsters.values() if m.alive and m.position is not None
        }

    @cached_property
    def blocked(self) -> frozenset[Square]:
        """Blocked squares: the quest's and sprung falling blocks."""
        return self.geo.blocked | frozenset(self.s.fallen_blocks)

    @cached_property
    def sight_blockers(self) -> frozenset[int]:
        """Figures and fallen blocks that block sight. Unrevealed monsters are not on the board
        yet (as in the board game, Zargon places them when their area is revealed), so they
        never block a line of sight: what a hero sees never depends on hidden monsters."""
        idx = self.geo.index
        squares = list(self.heroes_at) + self.s.fallen_blocks
        squares += [sq for sq, m in self.monsters_at.items() if m.pub is not None]
        return frozenset(idx(sq) for sq in squares)

    @cached_property
    def known_blocked(self) -> frozenset[Square]:
        """The blocked squares the heroes know of (the `blocked` list of a hero seat's view):
        fallen blocks, and the quest's blocked squares in or next to a revealed area."""
        geo = self.geo

        def shown(sq: Square) -> bool:
            if sq in geo.area_of:
                return self.revealed_square(sq)
            x, y = sq
            return any(
                self.revealed_square(nb) for nb in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1))
            )

        return frozenset(sq for sq in geo.blocked if shown(sq)) | frozenset(self.s.fallen_blocks)

    def occupied(self, sq: Square) -> bool:
        return sq in self.heroes_at or sq in self.monsters_at

    def visible_figure(self, sq: Square) -> bool:
        """A hero or a revealed monster stands on `sq` (what a hero seat can see there)."""
        if sq in self.heroes_at:
            return True
        m = self.monsters_at.get(sq)
        return m is not None and m.pub is not None

    def sees(self, a: Square, b: Square) -> bool:
        return self.geo.line_of_sight(a, b, self.open_edges, self.sight_blockers)

    def edge_open(self, a: Square, b: Square) -> bool:
        return not self.geo.edge_closed(a, b, self.open_edges)

    def standable(self, sq: Square) -> bool:
        """A square a figure could stop on, ignoring figures: on the map, not blocked or
        furniture."""
        geo = self.geo
        return sq in geo.playable and sq not in self.blocked and sq not in geo.furniture_at

    def free(self, sq: Square) -> bool:
        return self.standable(sq) and not self.occupied(sq)

    def revealed_square(self, sq: Square) -> bool:
        """Is `sq` shown to the heroes (its area revealed whole, or seen from afar)?"""
        area = self.geo.area_of.get(sq)
        if area is None or area not in self.s.areas:
            return False
        glimpsed = self.s.glimpsed.get(area)
        return glimpsed is None or sq in self.glimpsed_squares

    @cached_property
    def glimpsed_squares(self) -> frozenset[Square]:
        return frozenset(sq for squares in self.s.glimpsed.values() for sq in squares)

    def in_pit(self, sq: Square | None) -> bool:
        if sq is None:
            return False
        trap = self.geo.trap_at.get(sq)
        return (
            trap is not None
            and self.geo.traps[trap].kind == "pit"
            and self.s.traps[trap].state == "sprung"
        )

    def visible_monsters(self, sq: Square) -> list[MonsterState]:
        """Living revealed monsters seen from `sq`."""
        seen = self._seen_monsters.get(sq)
        if seen is None:
            seen = self._seen_monsters[sq] = [
                m for pos, m in self.monsters_at.items() if m.pub is not None and self.sees(sq, pos)
            ]
        return seen

    def visible_heroes(self, sq: Square) -> list[HeroState]:
        seen = self._seen_heroes.get(sq)
        if seen is None:
            seen = self._seen_heroes[sq] = [
                h for pos, h in self.heroes_at.items() if pos == sq or self.sees(sq, pos)
            ]
        return seen

    def can_melee(self, a: Square, b: Square, diagonal: bool) -> bool:
        """May a figure on `a` hit one on `b`: orthogonal through an open edge, or diagonal
        (when the weapon allows) past the corner."""
        if is_orthogonal_neighbour(a, b):
            return self.edge_open(a, b)
        if diagonal and is_diagonal_neighbour(a, b):
            return self.sees(a, b)
        return False

    def hero_attack_modes(self, hero: HeroState, target: Square) -> str | None:
        """Which weapon a hero would use on a monster at `target`: 'melee', 'ranged' or None."""
        assert hero.position is not None
        melee = melee_weapon(hero)  # None: bare-handed, orthogonal only
        # UK rules: "You cannot attack diagonally", whatever the weapon (docs/rules.md 9)
        diagonal = melee is not None and WEAPONS[melee].diagonal and self.diagonal_attacks
        if self.can_melee(hero.position, target, diagonal):
            return "melee"
        if (
            self.distance_attacks
            and ranged_weapon(hero) is not None
            and not (
                is_orthogonal_neighbour(hero.position, target)
                or is_diagonal_neighbour(hero.position, target)
            )
            and self.sees(hero.position, target)
        ):
            return "ranged"
        return None


def melee_weapon(hero: HeroState) -> str | None:
    """The wielded weapon, or the best carried one when the wielded one only shoots; None when
    the hero has no weapon to strike with (bare-handed: one attack die)."""
    wielded = WEAPONS.get(hero.weapon)
    if wielded is not None and not wielded.ranged:
        return hero.weapon
    melee = [w for w in hero.items if w in WEAPONS and not WEAPONS[w].ranged]
    return max(melee, key=lambda w: WEAPONS[w].attack, default=None)


def ranged_weapon(hero: HeroState) -> str | None:
    for w in [hero.weapon, *hero.items]:
        if w in WEAPONS and WEAPONS[w].ranged:
            return w
    return None
