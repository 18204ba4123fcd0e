"""The admin for rooms (with seats inline) and for quest definitions (validated source)."""

from pathlib import Path

import pytest
from django.test import Client

from apps.accounts.models import User
from apps.quests.admin import QuestDefinitionForm
from apps.quests.models import QuestDefinition
from apps.rooms import services
from apps.rooms.models import Room
from tests.conftest import PASSWORD
from tests.rooms.conftest import QUEST_SOURCE

pytestmark = pytest.mark.django_db

SHIPPED_QUEST = Path(__file__).resolve().parents[2] / "apps/games/heroquest/quests/ashen_vault.yaml"


@pytest.fixture
def admin_client(client: Client) -> Client:
    User.objects.create_superuser(username="root", email="root@example.com", password=PASSWORD)
    client.force_login(User.objects.get(username="root"))
    return client


def form_data(source: str) -> dict[str, str]:
    return {"slug": "the_pit", "name": "The Pit", "enabled": "on", "source": source}


def test_room_changelist_filters_by_status(admin_client: Client, room: Room, alice: User) -> None:
    services.room_seat_take(room_id=room.pk, user=alice, number=2)

    assert admin_client.get("/admin/rooms/room/?status__exact=open").status_code == 200
    response = admin_client.get(f"/admin/rooms/room/{room.pk}/change/")

    assert response.status_code == 200
    assert b"alice" in response.content  # the seat inline


def test_quest_changelist_and_change_page(admin_client: Client, quest: QuestDefinition) -> None:
    assert admin_client.get("/admin/quests/questdefinition/").status_code == 200
    response = admin_client.get(f"/admin/quests/questdefinition/{quest.pk}/change/")

    assert response.status_code == 200
    assert b'class="quest-source"' in response.content  # monospace, from quest_workshop.css
    assert b"/static/css/quest_workshop.css" in response.content


def test_quest_source_is_validated_on_save(db: None) -> None:
    bad = QuestDefinitionForm(data=form_data("name: The Pit\n"))
    good = QuestDefinitionForm(data=form_data(SHIPPED_QUEST.read_text(encoding="utf-8")))

    assert not bad.is_valid()
    assert bad.errors["source"]
    assert good.is_valid(), good.errors


def test_admin_refuses_a_broken_quest_and_keeps_the_old_source(
    admin_client: Client, quest: QuestDefinition
) -> None:
    url = f"/admin/quests/questdefinition/{quest.pk}/change/"
    data = form_data("map: [unclosed\n") | {"slug": quest.slug, "name": quest.name}

    response = admin_client.post(url, data)

    assert response.status_code == 200  # the form again, with the problems
    assert response.context["adminform"].form.errors["source"]
    quest.refresh_from_db()
    assert quest.source == QUEST_SOURCE


def room_form(room: Room, **changes: object) -> dict[str, object]:
    data = {
        "name": room.name,
        "host": room.host_id,
        "quest": room.quest_id,
        "seat_count": room.seat_count,
        "invite_code": room.invite_code,
        "status": room.status,
        "kind": room.kind,
        "ai_seat": room.ai_seat,
        "turn_time_limit": "",
        "reminder_after": "",
        "options": "{}",
        "seats-TOTAL_FORMS": "0",
        "seats-INITIAL_FORMS": "0",
    }
    return {**data, **changes}


@pytest.mark.parametrize(
    ("changes", "shown"),
    [
        ({"options": '{"edition": "martian"}'}, "Option &quot;edition&quot; must be"),
        ({"options": '{"cheats": true}'}, "Unknown option &#x27;cheats&#x27;"),
        ({"options": "[1, 2]"}, "The options must be a mapping"),
        ({"seat_count": 9}, "A room of HeroQuest has 2 to 5 seats, not 9."),
        (
            {"turn_time_limit": "01:00:00", "reminder_after": "02:00:00"},
            "The reminder must come before the turn time limit runs out.",
        ),
    ],
)
def test_the_room_admin_checks_what_the_engine_plays_by(
    admin_client: Client, room: Room, changes: dict[str, object], shown: str
) -> None:
    response = admin_client.post(f"/admin/rooms/room/{room.pk}/change/", room_form(room, **changes))

    assert response.status_code == 200, response.content[:300]
    assert shown in response.content.decode()
    room.refresh_from_db()
    assert room.options == {} and room.seat_count != 9


def test_the_room_admin_saves_options_the_engine_knows(admin_client: Client, room: Room) -> None:
    response = admin_client.post(
        f"/admin/rooms/room/{room.pk}/change/", room_form(room, options='{"edition": "uk"}')
    )

    assert response.status_code == 302
    room.refresh_from_db()
    assert room.options == {"edition": "uk"}
