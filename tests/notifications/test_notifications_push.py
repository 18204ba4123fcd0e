"""Web push end to end: a browser's keys made here, the site's payload posted to a push endpoint
on 127.0.0.1 that decrypts it (RFC 8291, with http_ece) and checks the VAPID header (RFC 8292);
dead subscriptions dropped; the router's presence and quiet hours; the pages push needs."""

import base64
import io
import json
import os
import struct
import time
import zlib
from datetime import UTC, datetime
from datetime import time as dt_time
from pathlib import Path
from typing import Any

import http_ece
import pytest
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, utils
from django.core import mail
from django.core.management import call_command
from django.test import Client

from apps.accounts.models import User
from apps.notifications.models import Notification, PushSubscription
from apps.notifications.push.keys import b64url, b64url_decode, new_key_pair
from apps.notifications.push.subscriptions import SubscriptionRefused, push_subscription_save
from apps.notifications.services import (
    notification_send,
    notifications_deliver_pending,
    presence_enter,
)
from tests.conftest import make_user

from .local_http import LocalServer, local_server

pytestmark = pytest.mark.django_db
Capture = Any


class Browser:
    """What a browser's push manager holds: its key pair and auth secret (RFC 8291)."""

    def __init__(self) -> None:
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)

    @property
    def p256dh(self) -> str:
        public = self.key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return b64url(public)

    def subscription(self, endpoint: str) -> dict[str, Any]:
        return {"endpoint": endpoint, "keys": {"p256dh": self.p256dh, "auth": b64url(self.auth)}}

    def decrypt(self, body: bytes) -> dict[str, Any]:
        plain = http_ece.decrypt(
            body, private_key=self.key, auth_secret=self.auth, version="aes128gcm"
        )
        return dict(json.loads(plain))


def vapid_claims(authorization: str, public_key: str) -> dict[str, Any]:
    """The claims of a VAPID header (`vapid t=JWT,k=KEY`), its ES256 signature checked."""
    scheme, _, rest = authorization.partition(" ")
    assert scheme == "vapid"
    parts = dict(p.strip().split("=", 1) for p in rest.split(","))
    assert parts["k"] == public_key  # the site's own public key
    header, payload, signature = parts["t"].split(".")
    raw = b64url_decode(signature)
    der = utils.encode_dss_signature(int.from_bytes(raw[:32]), int.from_bytes(raw[32:]))
    key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), b64url_decode(parts["k"]))
    key.verify(der, f"{header}.{payload}".encode(), ec.ECDSA(hashes.SHA256()))  # raises if forged
    assert json.loads(b64url_decode(header)) == {"typ": "JWT", "alg": "ES256"}
    return dict(json.loads(b64url_decode(payload)))


@pytest.fixture
def vapid(settings: Any) -> tuple[str, str]:
    private, public = new_key_pair()
    settings.VAPID_PRIVATE_KEY, settings.VAPID_PUBLIC_KEY = private, public
    settings.OUTBOUND_ALLOW_PRIVATE = True  # the push endpoint is this test's, on 127.0.0.1
    settings.SITE_URL = "https://play.example.com"
    return private, public


def subscribe(user: User, browser: Browser, server: LocalServer, path: str = "/push/1") -> None:
    push_subscription_save(
        user=user,
        data=browser.subscription(server.url + path),
        user_agent="Mozilla/5.0 (Android 14) Firefox/128.0",
    )


def test_a_turn_is_pushed_encrypted_to_the_browser_with_the_sites_vapid_signature(
    vapid: tuple[str, str], django_capture_on_commit_callbacks: Capture
) -> None:
    ann, browser = make_user("ann"), Browser()
    with local_server((201,)) as server:
        subscribe(ann, browser, server)
        with django_capture_on_commit_callbacks(execute=True):
            notification_send(
                user=ann,
                kind="your_turn",
                title="Your turn in Friday table",
                body="Round 3: the party is waiting for you.",
                url="/games/7/",
                topic="game-7",
            )
    [request] = server.requests
    assert request.path == "/push/1"
    assert request.headers["content-encoding"] == "aes128gcm"
    assert int(request.headers["ttl"]) == 86400 and request.headers["urgency"] == "high"
    assert b"Friday" not in request.body  # encrypted
    assert browser.decrypt(request.body) == {
        "title": "Your turn in Friday table",
        "body": "Round 3: the party is waiting for you.",
        "url": "https://play.example.com/games/7/",
        "tag": "game-7",
    }
    claims = vapid_claims(request.headers["authorization"], vapid[1])
    assert claims["aud"] == server.url  # the push service's origin
    assert claims["sub"] == "mailto:webmaster@play.example.com"
    assert time.time() < claims["exp"] <= time.time() + 24 * 3600
    [note] = Notification.objects.all()
    assert (note.push_status, note.email_status) == ("sent", "sent")
    assert PushSubscription.objects.get().last_sent is not None


@pytest.mark.parametrize("status", [404, 410])
def test_a_subscription_the_push_service_forgot_is_dropped(
    vapid: tuple[str, str], django_capture_on_commit_callbacks: Capture, status: int
) -> None:
    ann, gone, kept = make_user("ann"), Browser(), Browser()
    with local_server((status, 201)) as server:
        subscribe(ann, gone, server, "/push/gone")
        subscribe(ann, kept, server, "/push/kept")
        with django_capture_on_commit_callbacks(execute=True):
            notification_send(user=ann, kind="game_over", title="Game over", topic="game-7")
    assert [r.path for r in server.requests] == ["/push/gone", "/push/kept"]
    assert [s.endpoint.rsplit("/", 1)[1] for s in PushSubscription.objects.all()] == ["kept"]
    assert kept.decrypt(server.requests[1].body)["title"] == "Game over"


def test_nothing_is_pushed_or_emailed_while_the_game_is_open_on_any_device(
    vapid: tuple[str, str], django_capture_on_commit_callbacks: Capture
) -> None:
    ann = make_user("ann")
    with local_server((201,)) as server:
        subscribe(ann, Browser(), server)
        presence_enter(user_id=ann.pk, topic="game-7", channel_name="phone-socket")
        with django_capture_on_commit_callbacks(execute=True):
            notification_send(user=ann, kind="your_turn", title="Your turn", topic="game-7")
            notification_send(user=ann, kind="your_turn", title="Elsewhere", topic="game-8")
    assert len(server.requests) == 1  # only the game not open anywhere
    statuses = list(Notification.objects.order_by("id").values_list("push_status", "email_status"))
    assert statuses == [("present", "present"), ("sent", "sent")]
    assert [m.subject for m in mail.outbox] == ["Elsewhere"]


def test_quiet_hours_hold_push_and_email_until_they_end_and_send_only_the_newest_per_game(
    vapid: tuple[str, str], django_capture_on_commit_callbacks: Capture, time_machine: Any
) -> None:
    ann = make_user("ann", time_zone="Europe/Paris", quiet_start=dt_time(22), quiet_end=dt_time(7))
    browser = Browser()
    time_machine.move_to(datetime(2026, 12, 2, 22, 30, tzinfo=UTC))  # 23:30 in Paris
    with local_server((201,)) as server:
        subscribe(ann, browser, server)
        with django_capture_on_commit_callbacks(execute=True):
            notification_send(user=ann, kind="your_turn", title="Your turn (1)", topic="game-7")
            notification_send(user=ann, kind="reminder", title="Reminder", topic="game-7")
            notification_send(user=ann, kind="your_turn", title="Your turn in B", topic="game-9")
        assert server.requests == [] and mail.outbox == []
        rows = Notification.objects.order_by("id")
        assert {n.held_until for n in rows} == {datetime(2026, 12, 3, 6, 0, tzinfo=UTC)}
        assert all(n.delivered_at is None for n in rows)

        time_machine.move_to(datetime(2026, 12, 3, 5, 59, tzinfo=UTC))
        assert notifications_deliver_pending() == 0  # still quiet in Paris
        time_machine.move_to(datetime(2026, 12, 3, 6, 1, tzinfo=UTC))  # 07:01 in Paris
        assert notifications_deliver_pending() == 3
        assert notifications_deliver_pending() == 0  # once
    titles = sorted(browser.decrypt(r.body)["title"] for r in server.requests)
    assert titles == ["Reminder", "Your turn in B"]  # game 7's older news was superseded
    assert sorted(m.subject for m in mail.outbox) == ["Reminder", "Your turn in B"]
    statuses = list(Notification.objects.order_by("id").values_list("push_status", flat=True))
    assert statuses == ["superseded", "sent", "sent"]


def test_a_subscription_must_carry_real_keys_and_a_public_https_endpoint(
    settings: Any,
) -> None:
    ann, browser = make_user("ann"), Browser()
    data = browser.subscription("https://127.0.0.1:6379/")
    with pytest.raises(SubscriptionRefused, match="not a public address"):
        push_subscription_save(user=ann, data=data)
    with pytest.raises(SubscriptionRefused, match="https"):
        push_subscription_save(user=ann, data=browser.subscription("http://push.example/"))
    settings.OUTBOUND_ALLOW_PRIVATE = True
    bad = browser.subscription("https://127.0.0.1/x")
    bad["keys"]["auth"] = b64url(b"short")
    with pytest.raises(SubscriptionRefused, match="wrong length"):
        push_subscription_save(user=ann, data=bad)


def test_the_profile_subscribes_lists_and_removes_browsers(vapid: tuple[str, str]) -> None:
    ann, bob = make_user("ann"), make_user("bob")
    client = Client()
    client.force_login(ann)
    browser = Browser()
    answer = client.post(
        "/notifications/push/subscribe",
        json.dumps(browser.subscription("http://127.0.0.1:9/push/abc")),
        content_type="application/json",
        HTTP_USER_AGENT="Mozilla/5.0 (iPhone; CPU iPhone OS 17_0) Safari/604.1",
    )
    assert answer.status_code == 201 and answer.json()["label"] == "Safari on iPhone"
    page = client.get("/accounts/profile/").content.decode()
    assert "Turn on notifications for this browser" in page and "Safari on iPhone" in page
    assert f'data-key="{vapid[1]}"' in page
    [subscription] = PushSubscription.objects.all()
    other = Client()
    other.force_login(bob)
    assert other.post(f"/notifications/push/{subscription.pk}/remove").status_code == 404
    assert client.post(f"/notifications/push/{subscription.pk}/remove").status_code == 302
    assert not PushSubscription.objects.exists()
    refused = client.post("/notifications/push/subscribe", "{}", content_type="application/json")
    assert refused.status_code == 400


def test_the_service_worker_manifest_and_icons_are_served() -> None:
    client = Client()
    worker = client.get("/sw.js")
    assert worker.status_code == 200 and worker["Service-Worker-Allowed"] == "/"
    assert worker["Content-Type"].startswith("text/javascript")
    assert b"notificationclick" in worker.content and b"showNotification" in worker.content
    manifest = client.get("/manifest.webmanifest").json()
    assert manifest["display"] == "standalone" and manifest["start_url"] == "/"
    for icon in manifest["icons"]:
        answer = client.get(icon["src"])
        assert answer.status_code == 200 and answer["Content-Type"] == icon["type"]
        if icon["type"] == "image/png":
            png = answer.content
            assert png[:8] == b"\x89PNG\r\n\x1a\n"
            width, height = struct.unpack(">II", png[16:24])
            assert f"{width}x{height}" == icon["sizes"]
            idat = png.index(b"IDAT")
            (length,) = struct.unpack(">I", png[idat - 4 : idat])
            assert len(zlib.decompress(png[idat + 4 : idat + 4 + length])) == height * (
                1 + 3 * width
            )
    assert client.get("/icons/icon-64.png").status_code == 404
    assert 'rel="manifest"' in client.get("/accounts/login/").content.decode()


def test_vapid_keys_are_made_once_and_kept(settings: Any, tmp_path: Path) -> None:
    settings.VAPID_PRIVATE_KEY = settings.VAPID_PUBLIC_KEY = ""
    settings.VAPID_FILE = str(tmp_path / "vapid.json")
    call_command("vapid_keys", stdout=(first := io.StringIO()))
    stored = json.loads(Path(settings.VAPID_FILE).read_text())
    assert "Made" in first.getvalue() and stored["public_key"] in first.getvalue()
    assert oct(os.stat(settings.VAPID_FILE).st_mode & 0o777) == "0o600"
    assert len(base64.urlsafe_b64decode(stored["public_key"] + "==")) == 65
    call_command("vapid_keys", stdout=(second := io.StringIO()))
    assert "Using" in second.getvalue()
    assert json.loads(Path(settings.VAPID_FILE).read_text()) == stored
