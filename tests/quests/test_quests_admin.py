"""The quest workshop in the admin (apps/quests/admin.py): staff upload or edit a quest file, see
every problem with its line number (nothing saved while any remain), preview the starting map as
Zargon sees it, and restore earlier revisions; `load_quests` then leaves their work alone."""

import json
import re
import time
from io import StringIO
from typing import Any

import pytest
from django.contrib.staticfiles import finders
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.test import Client

from apps.accounts.models import User
from apps.quests.models import QuestDefinition, QuestRevision
from apps.quests.services import quest_load
from tests.conftest import make_user

from .conftest import client_for

pytestmark = pytest.mark.django_db

ADD = "/admin/quests/questdefinition/add/"
BROKEN = "name: Broken Keep\nslug: broken_keep\nmap: 7\nareas: {}\nvillain: nobody\n"


def change_url(definition: QuestDefinition) -> str:
    return f"/admin/quests/questdefinition/{definition.pk}/change/"


def upload(client: Client, url: str, text: str, name: str = "quest.yaml", **fields: str) -> Any:
    data = {"upload": SimpleUploadedFile(name, text.encode(), "application/yaml"), "source": ""}
    return client.post(url, {**data, **fields})


def edit(client: Client, definition: QuestDefinition, source: str, enabled: bool = True) -> Any:
    data = {"source": source, **({"enabled": "on"} if enabled else {})}
    return client.post(change_url(definition), data)


def a_copy_of(vault: QuestDefinition) -> str:
    """The Ashen Vault's file as a new quest of its own."""
    return vault.source.replace("slug: ashen_vault", "slug: ember_copy").replace(
        "name: The Ashen Vault", "name: The Ember Copy"
    )


def harder(source: str) -> str:
    return source.replace("name: The Ashen Vault", "name: The Ashen Vault (hard)")


# --- upload -------------------------------------------------------------------------------------


def test_a_good_upload_becomes_a_new_quest_switched_off_with_revision_1(
    editor: User, vault: QuestDefinition
) -> None:
    response = upload(client_for(editor), ADD, a_copy_of(vault), name="ember_copy.yaml")

    assert response.status_code == 302
    copy = QuestDefinition.objects.get(slug="ember_copy")
    assert (copy.name, copy.origin, copy.enabled) == ("The Ember Copy", "admin", False)
    revision = copy.revisions.get()
    assert (revision.number, revision.note, revision.author) == (1, "upload", editor)
    assert revision.source == copy.source == a_copy_of(vault)


def test_a_bad_upload_lists_its_problems_by_line_and_saves_nothing(
    editor: User, vault: QuestDefinition
) -> None:
    quests, revisions = QuestDefinition.objects.count(), QuestRevision.objects.count()

    response = upload(client_for(editor), ADD, BROKEN, name="broken_keep.yaml")

    assert response.status_code == 200
    page = response.content.decode()
    assert "broken_keep.yaml line 3, map: should be a valid string, got 7" in page
    assert "broken_keep.yaml line 4, areas: no area is marked" in page
    assert "broken_keep.yaml line 1: required key &#x27;heroes&#x27; is missing" in page
    # The file is back in the editor, to be fixed there.
    assert response.context["adminform"].form["source"].value() == BROKEN
    assert (QuestDefinition.objects.count(), QuestRevision.objects.count()) == (quests, revisions)


def test_a_bad_file_uploaded_over_a_quest_leaves_it_as_it_was(
    editor: User, vault: QuestDefinition
) -> None:
    broken = vault.source.replace("villain: warden", "villain: nobody")

    response = upload(client_for(editor), change_url(vault), broken, name="ashen_vault.yaml")

    assert "ashen_vault.yaml line 7, villain: there is no monster" in response.content.decode()
    vault.refresh_from_db()
    assert (vault.origin, vault.revisions.count()) == ("shipped", 1)
    assert "villain: warden" in vault.source


def test_an_upload_may_not_take_another_quests_slug(editor: User, vault: QuestDefinition) -> None:
    response = upload(client_for(editor), ADD, vault.source, name="again.yaml")

    assert "already exists; edit that one instead" in response.content.decode()
    assert QuestDefinition.objects.filter(slug="ashen_vault").count() == 1


def test_a_file_that_is_not_utf8_is_refused(editor: User, db: None) -> None:
    data = {"upload": SimpleUploadedFile("q.yaml", b"name: \xff\xfe\n"), "source": ""}

    response = client_for(editor).post(ADD, data)

    assert "The file is not UTF-8 text." in response.content.decode()
    assert not QuestDefinition.objects.exists()


# --- edits and load_quests ----------------------------------------------------------------------


def test_an_edit_in_the_admin_is_the_admins_and_load_quests_skips_it(
    editor: User, vault: QuestDefinition
) -> None:
    assert edit(client_for(editor), vault, harder(vault.source)).status_code == 302
    vault.refresh_from_db()
    assert (vault.name, vault.origin) == ("The Ashen Vault (hard)", "admin")
    assert vault.revisions.get(number=2).author == editor

    out = StringIO()
    call_command("load_quests", stdout=out)

    vault.refresh_from_db()
    assert vault.name == "The Ashen Vault (hard)"
    assert quest_load(slug="ashen_vault").name == "The Ashen Vault (hard)"
    assert "ashen_vault: The Ashen Vault (hard) (skipped: edited by an admin" in out.getvalue()
    assert "smoke_warrens: " in out.getvalue()  # the other quests are still loaded


def test_switching_a_quest_off_keeps_it_as_shipped(editor: User, vault: QuestDefinition) -> None:
    edit(client_for(editor), vault, vault.source, enabled=False)

    vault.refresh_from_db()
    assert (vault.enabled, vault.origin, vault.revisions.count()) == (False, "shipped", 1)


# --- preview ------------------------------------------------------------------------------------


def seat_view_on(page: str) -> dict[str, Any]:
    found = re.search(r'<script id="seat-view" type="application/json">(.*?)</script>', page, re.S)
    assert found, "the page carries no seat view"
    view: dict[str, Any] = json.loads(found.group(1))
    return view


def test_the_preview_draws_zargons_view_of_the_quests_start_with_the_games_board(
    editor: User, vault: QuestDefinition
) -> None:
    page = client_for(editor).get(f"/admin/quests/questdefinition/{vault.pk}/preview/")

    html = page.content.decode()
    assert page.status_code == 200
    # The game's own board drawing and styles, fed like the play page (json_script, no inline JS).
    assert 'src="/static/js/quest_preview.js"' in html
    assert 'href="/static/css/games/heroquest/board.css"' in html
    assert '<svg id="board" class="board"' in html
    view = seat_view_on(html)
    quest = quest_load(slug="ashen_vault")
    assert (view["role"], view["round"]) == ("zargon", 1)
    monsters = {m["id"]: m["position"] for m in view["monsters"]}
    villain = next(m for m in quest.monsters if m.id == quest.villain)
    assert monsters[f"z-m-{villain.id}"] == list(villain.square)  # hidden from heroes, not Zargon
    heroes = {h["hero"]: h["position"] for h in view["heroes"]}
    assert heroes["barbarian"] == list(quest.hero_starts["barbarian"])


def test_the_preview_script_draws_with_the_play_pages_board_module() -> None:
    script = finders.find("js/quest_preview.js")
    assert script
    with open(str(script), encoding="utf-8") as f:
        assert 'import { drawBoard } from "./games/heroquest/map.js";' in f.read()


def test_the_preview_shows_an_uploaded_quest_before_it_is_enabled(
    editor: User, vault: QuestDefinition
) -> None:
    client = client_for(editor)
    upload(client, ADD, a_copy_of(vault), name="ember_copy.yaml")
    copy = QuestDefinition.objects.get(slug="ember_copy")

    html = client.get(f"/admin/quests/questdefinition/{copy.pk}/preview/").content.decode()

    assert "not enabled" in html
    assert seat_view_on(html)["quest"]["name"] == "The Ember Copy"


# --- revisions ----------------------------------------------------------------------------------


def test_restoring_revision_1_makes_revision_4_with_its_source(
    editor: User, vault: QuestDefinition
) -> None:
    client = client_for(editor)
    shipped = vault.source
    edit(client, vault, harder(shipped))
    edit(client, vault, harder(shipped).replace("reward_gold: 200", "reward_gold: 300"))
    assert (
        "Restore revision 1"
        in client.get(f"/admin/quests/questdefinition/{vault.pk}/revisions/").content.decode()
    )

    response = client.post(f"/admin/quests/questdefinition/{vault.pk}/revisions/1/restore/")

    assert response.status_code == 302
    newest = vault.revisions.order_by("-number").first()
    assert newest is not None
    assert (newest.number, newest.note, newest.restored_from) == (4, "restore", 1)
    assert (newest.author, newest.source) == (editor, shipped)
    assert newest.created > vault.revisions.get(number=3).created
    vault.refresh_from_db()
    # Revision 1 is the shipped file's: the quest follows the shipped file again (issue 21).
    assert (vault.source, vault.origin) == (shipped, "shipped")
    page = client.get(f"/admin/quests/questdefinition/{vault.pk}/revisions/").content.decode()
    assert "Restored from an earlier revision (revision 1)" in page
    assert "This quest follows the shipped file now." in page


def test_restore_only_answers_a_post(editor: User, vault: QuestDefinition) -> None:
    client = client_for(editor)
    edit(client, vault, harder(vault.source))

    response = client.get(f"/admin/quests/questdefinition/{vault.pk}/revisions/1/restore/")

    assert response.status_code == 405
    assert vault.revisions.count() == 2


def test_restore_needs_the_csrf_token(editor: User, vault: QuestDefinition) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(editor)
    edit(client_for(editor), vault, harder(vault.source))

    response = client.post(f"/admin/quests/questdefinition/{vault.pk}/revisions/1/restore/")

    assert response.status_code == 403
    assert vault.revisions.count() == 2


# --- who may -------------------------------------------------------------------------------------


WORKSHOP_PAGES = ("change", "preview", "revisions")


@pytest.mark.parametrize("page", WORKSHOP_PAGES)
def test_a_player_who_is_not_staff_is_sent_to_the_admin_login(
    page: str, vault: QuestDefinition
) -> None:
    player = client_for(make_user("player"))

    response = player.get(f"/admin/quests/questdefinition/{vault.pk}/{page}/")

    assert response.status_code == 302
    assert response["Location"].startswith("/admin/login/")


def test_a_player_who_is_not_staff_can_neither_upload_nor_restore(vault: QuestDefinition) -> None:
    player = client_for(make_user("player"))
    quests, revisions = QuestDefinition.objects.count(), QuestRevision.objects.count()

    upload(player, ADD, a_copy_of(vault), name="ember_copy.yaml")
    player.post(f"/admin/quests/questdefinition/{vault.pk}/revisions/1/restore/")
    edit(player, vault, harder(vault.source))

    assert (QuestDefinition.objects.count(), QuestRevision.objects.count()) == (quests, revisions)


def test_staff_who_may_only_view_quests_cannot_restore(vault: QuestDefinition) -> None:
    viewer = client_for(make_user("viewer", staff=True, perms=("quests.view_questdefinition",)))

    assert viewer.get(f"/admin/quests/questdefinition/{vault.pk}/preview/").status_code == 200
    response = viewer.post(f"/admin/quests/questdefinition/{vault.pk}/revisions/1/restore/")

    assert response.status_code == 403
    assert vault.revisions.count() == 1


def test_the_revisions_page_shows_what_each_revision_changed(
    editor: User, vault: QuestDefinition
) -> None:
    client = client_for(editor)
    edit(client, vault, harder(vault.source))

    page = client.get(f"/admin/quests/questdefinition/{vault.pk}/revisions/").content.decode()

    assert "--- revision 1\n+++ revision 2\n" in page
    assert "\n-name: The Ashen Vault\n+name: The Ashen Vault (hard)\n" in page
    assert "2 (current)" in page and "Edited by an admin" in page


def test_a_file_uploaded_over_a_quest_is_recorded_as_an_upload(
    editor: User, vault: QuestDefinition
) -> None:
    upload(client_for(editor), change_url(vault), harder(vault.source), name="ashen_vault.yaml")

    newest = vault.revisions.get(number=2)
    assert (newest.note, newest.author, newest.source) == ("upload", editor, harder(vault.source))


# --- the workshop weighs its input (issue 22) --------------------------------------------------


def alias_bomb() -> str:
    """367 bytes that expand to 9**9 (387 million) strings: it held a web process for minutes."""
    lines = ['  a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for prev, name in zip("abcdefgh", "bcdefghi", strict=True):
        lines.append(f"  {name}: &{name} [{','.join([f'*{prev}'] * 9)}]")
    return "notes:\n" + "\n".join(lines) + "\n"


BOMBS = {
    "alias": (alias_bomb(), "YAML anchors and aliases (&amp;name, *name) are not allowed"),
    "flat": ("".join(f"k{i}: {i}\n" for i in range(8000)), "more than 10,000 YAML values"),
    "deep": ("monsters:\n" + "- " * 10_000 + "x\n", "nested more than 20 levels deep"),
    "deep_flow": ("a: " + "[" * 10_000 + "]" * 10_000 + "\n", "nesting depth"),
}


@pytest.mark.parametrize("bomb", BOMBS)
def test_each_yaml_bomb_is_refused_in_well_under_a_second(
    editor: User, vault: QuestDefinition, bomb: str
) -> None:
    text, said = BOMBS[bomb]
    client = client_for(editor)
    revisions = QuestRevision.objects.count()
    started = time.perf_counter()

    uploaded = upload(client, ADD, text, name="bomb.yaml")
    edited = edit(client, vault, text)

    assert time.perf_counter() - started < 1.0  # a bound on the refusal, not a benchmark
    for response in (uploaded, edited):
        assert response.status_code == 200
        assert said in response.content.decode()
    assert QuestRevision.objects.count() == revisions  # nothing saved
