"""Every page carries the Content-Security-Policy and the Permissions-Policy (config/headers.py)."""

import re
from pathlib import Path

import pytest
from csp.middleware import CSPMiddleware
from django.http import HttpResponse, HttpResponseBase
from django.test import Client, RequestFactory

from apps.play.services import game_launch
from apps.quests.models import QuestDefinition
from apps.rooms import services as rooms
from config.headers import SiteCSPMiddleware
from tests.conftest import make_user

QUEST_FILE = (
    Path(__file__).resolve().parents[2]
    / "apps"
    / "games"
    / "heroquest"
    / "quests"
    / "ashen_vault.yaml"
)


@pytest.fixture
def pages(db: None) -> tuple[Client, list[str]]:
    """A logged-in host with a room and a launched game: the site's main pages and a client."""
    QuestDefinition.objects.create(
        slug="ashen_vault", name="The Ashen Vault", source=QUEST_FILE.read_text(encoding="utf-8")
    )
    host, guest = make_user("host"), make_user("guest")
    room = rooms.room_create(host=host, name="Friday table", seat_count=2)
    rooms.room_seat_take(room_id=room.pk, user=host, number=1)
    rooms.room_seat_take(room_id=room.pk, user=guest, number=2)
    waiting = rooms.room_create(host=host, name="Next week", seat_count=2)
    game = game_launch(room_id=room.pk, user=host, seed=1)
    client = Client()
    client.force_login(host)
    return client, ["/", f"/rooms/{waiting.pk}/", f"/games/{game.pk}/", "/accounts/profile/"]


def csp_directives(header: str) -> dict[str, list[str]]:
    directives = (part.split() for part in header.split(";") if part.strip())
    return {name: values for name, *values in directives}


Pages = tuple[Client, list[str]]


def test_every_main_page_carries_a_csp_without_inline_scripts(pages: Pages) -> None:
    client, paths = pages
    for path in [*paths, "/accounts/login/"]:
        response = client.get(path)

        assert response.status_code == 200, path
        policy = csp_directives(response["Content-Security-Policy"])
        assert policy["script-src"] == ["'self'"], path
        assert policy["style-src"] == ["'self'"], path
        assert policy["default-src"] == ["'self'"], path
        assert policy["frame-ancestors"] == ["'none'"], path


def test_websockets_are_allowed_to_the_sites_own_host_only(pages: tuple[Client, list[str]]) -> None:
    client, paths = pages

    response = client.get(paths[1], HTTP_HOST="localhost")

    policy = csp_directives(response["Content-Security-Policy"])
    assert sorted(policy["connect-src"]) == ["'self'", "ws://localhost", "wss://localhost"]


def test_every_main_page_carries_a_permissions_policy(pages: tuple[Client, list[str]]) -> None:
    client, paths = pages
    for path in [*paths, "/accounts/login/"]:
        response = client.get(path)

        assert "camera=()" in response["Permissions-Policy"], path
        assert "geolocation=()" in response["Permissions-Policy"], path
        assert "microphone=()" in response["Permissions-Policy"], path


def test_no_template_has_an_inline_script_or_event_handler() -> None:
    """The policy forbids them, so a browser would silently skip them."""
    templates = Path(__file__).resolve().parents[2] / "templates"
    for template in templates.rglob("*.html"):
        text = template.read_text(encoding="utf-8")
        for line in text.splitlines():
            if "<script" in line:
                assert "src=" in line, f"{template}: inline <script>"
        assert not re.search(r"\son[a-z]+=", text), f"{template}: inline event handler"


# --- the policies built once per host ------------------------------------------------------------


def csp_headers(response: HttpResponseBase) -> dict[str, str]:
    return {k: v for k, v in response.items() if k.startswith("Content-Security-Policy")}


def answered(middleware: SiteCSPMiddleware, host: str, response: HttpResponse) -> HttpResponse:
    request = RequestFactory().get("/api/auth/me", HTTP_HOST=host)
    middleware.process_request(request)
    return middleware.process_response(request, response)  # type: ignore[return-value]


def test_each_host_gets_the_policy_django_csp_builds_for_it() -> None:
    kept = SiteCSPMiddleware(lambda request: HttpResponse())
    for host in ["localhost", "testserver", "localhost", "testserver"]:
        request = RequestFactory().get("/", HTTP_HOST=host)
        built = CSPMiddleware.process_response(kept, request, HttpResponse())

        assert csp_headers(answered(kept, host, HttpResponse())) == csp_headers(built)
        assert f"wss://{host}" in built["Content-Security-Policy"]


def test_a_view_with_a_policy_of_its_own_gets_it_and_the_next_does_not() -> None:
    kept = SiteCSPMiddleware(lambda request: HttpResponse())
    own = HttpResponse()
    own._csp_update = {"img-src": ["https://maps.example.org"]}  # type: ignore[attr-defined]

    assert "https://maps.example.org" in answered(kept, "localhost", own)["Content-Security-Policy"]
    plain = answered(kept, "localhost", HttpResponse())
    assert "https://maps.example.org" not in plain["Content-Security-Policy"]


def test_an_exempt_response_or_one_with_its_header_set_keeps_it() -> None:
    kept = SiteCSPMiddleware(lambda request: HttpResponse())
    exempt = HttpResponse()
    exempt._csp_exempt = True  # type: ignore[attr-defined]
    preset = HttpResponse(headers={"Content-Security-Policy": "default-src 'none'"})

    assert "Content-Security-Policy" not in answered(kept, "localhost", exempt)
    assert answered(kept, "localhost", preset)["Content-Security-Policy"] == "default-src 'none'"
