"""The story and the voice speak a player's words (issue 21): in playouts of every tale, no event
text, redacted text or die's roller carries an engine id (a space's "a3", "r12", "s1",
"rope_bridge"; a hero's "barbarian"; an outcome's "hero:dwarf"), only names."""

import re

import pytest

from apps.games.zagor.board import board
from apps.games.zagor.data import HERO_ORDER
from apps.games.zagor.engine import apply, legal_actions, new_game, seats_to_move
from apps.games.zagor.playout import goal_policy, random_policy
from apps.games.zagor.scenarios import SLUGS, shipped

# Id-shaped words: a corridor's, a room's or a start's id, anything snake_case, a hero's id in
# lower case where his name belongs (the capitalised "Dwarf" of "Friendly Dwarf" is a name).
ID_SHAPED = re.compile(
    r"\b(?:[abcs]\d+|r\d\d)\b|\b\w+_\w+\b|\bhero:|\bNone\b|\b(?:" + "|".join(HERO_ORDER) + r")\b"
)
# Phrases that use a hero's word in its English sense: the tiles' own texts ("A dwarf offers his
# axe", "A good wizard", apps/games/zagor/data.py), taken out before the search.
ENGLISH = re.compile(r"\b(?:an? dwarf|good wizard|evil wizard)\b", re.IGNORECASE)


def story(slug: str, heroes: int, seed: int, policy, limit: int = 1500) -> list[dict]:
    start = new_game(shipped(slug), heroes, seed, {}, commitment=None)
    state, events, rng = start.state, list(start.events), [seed]
    for _ in range(limit):
        if state.outcome is not None:
            break
        (seat,) = seats_to_move(state)
        step = apply(state, seat, policy(state, legal_actions(state, seat), rng))
        state = step.state
        events += step.events
    return events


def told(event: dict) -> list[str]:
    """Every text of an event a page shows: its text, its redacted text, its dice's rollers."""
    texts = [str(event.get("text") or "")]
    redacted = event.get("redacted")
    if isinstance(redacted, dict):
        texts.append(str(redacted.get("text") or ""))
    texts += [str(roll.get("who") or "") for roll in event.get("dice") or []]
    return texts


def test_the_id_pattern_catches_the_boards_ids():
    ids = set(board().spaces) - {"store", "portal", "cave", "hall", "steps"}  # plain words
    assert all(ID_SHAPED.search(f"Anvar moves to {space}.") for space in ids)


@pytest.mark.parametrize("slug", SLUGS)
@pytest.mark.parametrize("heroes", [1, 4])
@pytest.mark.parametrize("policy", [goal_policy, random_policy])
def test_no_engine_id_in_what_the_story_tells(slug, heroes, policy):
    found = {
        (word, text)
        for event in story(slug, heroes, 300 + heroes, policy)
        for text in told(event)
        for word in ID_SHAPED.findall(ENGLISH.sub("", text))
    }
    assert not found, sorted(found)[:5]
