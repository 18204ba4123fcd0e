"""NUL bytes and lone surrogates are refused with 400 wherever they come in (config/input.py)."""

import json
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from apps.rooms.models import Room

pytestmark = pytest.mark.django_db

NUL, SURROGATE = "a\x00b", "a\ud800b"
REFUSED = "The request contains a NUL character or an unpaired surrogate, which are not allowed."


@pytest.fixture
def signed_in() -> Client:
    user = get_user_model().objects.create_user(username="ana", password="lantern-crypt-7781")
    client = Client()
    client.force_login(user)
    return client


def json_body(value: dict[str, Any]) -> str:
    return json.dumps(value)  # a lone surrogate is written as its \\u escape, as clients do


@pytest.mark.parametrize("bad", [NUL, SURROGATE])
def test_an_idempotency_key_or_room_name_in_json_is_refused(signed_in: Client, bad: str) -> None:
    action = {"action": {"type": "end_turn"}, "expected_version": 0, "idempotency_key": bad}
    room = {"name": bad, "seats": 3, "quest": "ashen_vault"}

    for url, body in (("/api/games/1/actions", action), ("/api/rooms", room)):
        response = signed_in.post(url, json_body(body), content_type="application/json")
        assert response.status_code == 400
        assert response.json() == {"detail": REFUSED}


@pytest.mark.parametrize("bad", [NUL])  # a form cannot carry a lone surrogate: UTF-8 has none
def test_a_username_or_room_name_in_a_form_is_refused(signed_in: Client, bad: str) -> None:
    signup = {"username": bad, "email": "x@example.com", "password1": "p", "password2": "p"}
    pages = [
        Client().post("/accounts/signup/", signup),
        signed_in.post("/rooms/new", {"name": bad, "seats": "3", "quest": "ashen_vault"}),
    ]

    assert [page.status_code for page in pages] == [400, 400]
    assert pages[0].content.decode() == REFUSED


def test_a_join_link_or_query_with_a_nul_is_refused(signed_in: Client) -> None:
    assert signed_in.get("/rooms/join/abc%00def").status_code == 400
    assert signed_in.get("/api/rooms/1", {"q": NUL}).status_code == 400


def test_a_body_that_is_not_utf8_or_nested_too_deep_is_refused(signed_in: Client) -> None:
    for body in (b"\xff\xfe{}", b"[" * 100_000 + b"]" * 100_000):
        response = signed_in.post("/api/rooms", body, content_type="application/json")
        assert response.status_code == 400


def test_ordinary_text_passes(signed_in: Client) -> None:
    response = signed_in.post(
        "/api/rooms",
        json_body({"name": "Café 🐉 table", "seats": 3, "quest": "nope"}),
        content_type="application/json",
    )
    assert response.status_code == 422  # judged by the site: no such quest


def test_admin_forms_and_searches_are_guarded_by_the_same_gate() -> None:
    """The admin's own forms go through the one middleware too: nothing reaches a model.

    Forms and queries carry NULs (a lone surrogate has no UTF-8 form); JSON carries both.
    """

    keeper = get_user_model().objects.create_superuser(
        username="keeper", email="keeper@example.com", password="lantern-crypt-7781"
    )
    admin = Client()
    admin.force_login(keeper)
    change_user = f"/admin/accounts/user/{keeper.pk}/change/"
    room_form = {"name": NUL, "seat_count": "3", "status": "open", "ai_seat": "human"}

    responses = [
        admin.post(change_user, {"username": NUL, "email": "keeper@example.com"}),
        admin.post("/admin/rooms/room/add/", room_form),
        admin.get("/admin/accounts/user/", {"q": NUL}),
        admin.get("/admin/rooms/room/", {"q": NUL}),
        Client().post("/admin/login/", {"username": NUL, "password": "x"}),
        *(
            admin.post(change_user, json_body({"username": bad}), content_type="application/json")
            for bad in (NUL, SURROGATE)
        ),
    ]

    assert [r.status_code for r in responses] == [400] * len(responses)
    keeper.refresh_from_db()
    assert keeper.username == "keeper" and not Room.objects.exists()
