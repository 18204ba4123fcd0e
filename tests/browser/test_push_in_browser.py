"""Web push in Debian's Chromium: the profile's button registers the service worker (/sw.js,
scope "/") and hands the subscription to the site; a push delivered to the worker through
DevTools (`ServiceWorker.deliverPushMessage`) shows its notification, and a tap on it closes it
and opens the game; an iPhone before "Add to Home Screen" is told what to do instead.

Headless Chromium has no push service to subscribe to, so `pushManager.subscribe` answers with
the subscription this test's keys make (tests/notifications/test_notifications_push.py pushes to
such keys for real and decrypts). Everything else is the browser's own.
"""

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import sync_playwright

from apps.notifications.push.keys import new_key_pair
from apps.notifications.push.send import push_payload
from tests.notifications.test_notifications_push import Browser
from tests.servers import web_server

from .test_play_in_browser import (  # noqa: F401 (chromium and site_env are fixtures)
    CHROMIUM_ARGS,
    PASSWORD,
    Player,
    chromium,
    refuse_policy_violations,
    sign_up,
    site_env,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

IPHONE = (
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 "
    "(KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1"
)


@pytest.fixture
def push_site(site_env: dict[str, str], tmp_path: Path) -> Iterator[str]:  # noqa: F811
    private, public = new_key_pair()
    env = {**site_env, "VAPID_PRIVATE_KEY": private, "VAPID_PUBLIC_KEY": public}
    env["OUTBOUND_ALLOW_PRIVATE"] = "true"  # the subscription's endpoint is on 127.0.0.1
    with web_server(env, tmp_path) as base:
        yield base


def fake_subscribe_script(subscription: dict[str, Any]) -> str:
    """`pushManager.subscribe` answering with `subscription` (no push service in headless)."""
    return (
        "PushManager.prototype.subscribe = async function () {"
        f"  const data = {json.dumps(subscription)};"
        "  return { endpoint: data.endpoint, toJSON: () => data, unsubscribe: async () => true };"
        "};"
    )


def notifications_shown(page: Any) -> list[dict[str, Any]]:
    shown: list[dict[str, Any]] = page.evaluate(
        """async () => {
            const registration = await navigator.serviceWorker.ready;
            const shown = await registration.getNotifications();
            return shown.map((n) => ({ title: n.title, body: n.body, tag: n.tag, data: n.data }));
        }"""
    )
    return shown


def test_the_browser_subscribes_and_shows_a_pushed_turn(
    chromium: str,  # noqa: F811
    push_site: str,
) -> None:
    keys = Browser()
    subscription = keys.subscription("http://127.0.0.1:9/send/abc123")
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        try:
            context = browser.new_context()
            context.grant_permissions(["notifications"], origin=push_site)
            context.add_init_script(fake_subscribe_script(subscription))
            context.set_default_timeout(15000)
            pia = Player(name="pia", page=context.new_page())
            errors: list[str] = []
            pia.page.on("pageerror", lambda e: errors.append(str(e)))
            refuse_policy_violations(pia.page, errors)
            sign_up(pia, push_site)
            page = pia.page
            page.goto(f"{push_site}/accounts/profile/")
            assert page.get_attribute('link[rel="manifest"]', "href") == "/manifest.webmanifest"

            cdp = context.new_cdp_session(page)
            registrations: list[dict[str, Any]] = []
            cdp.on(
                "ServiceWorker.workerRegistrationUpdated",
                lambda event: registrations.extend(event["registrations"]),
            )
            cdp.send("ServiceWorker.enable")

            button = page.get_by_role("button", name="Turn on notifications for this browser")
            button.click()
            page.wait_for_function(
                """() => document.querySelector('#push-devices + ul li')
                    || /could not|did not|cannot/.test(
                        document.querySelector('#push-status').textContent)"""
            )
            assert page.query_selector("#push-devices + ul li"), page.text_content(
                "#push-status"
            )  # the page reloads with it listed
            assert "Chrome on Linux" in page.text_content("#push-devices + ul")
            scope = page.evaluate("async () => (await navigator.serviceWorker.ready).scope")
            assert scope == f"{push_site}/"

            deadline = time.monotonic() + 10
            while not registrations and time.monotonic() < deadline:
                page.wait_for_timeout(100)
            [registration] = [r for r in registrations if r["scopeURL"] == f"{push_site}/"][:1]
            payload = push_payload(
                title="Your turn in Friday table: the Dwarf",
                body="Round 2: the party is waiting for you.",
                url=f"{push_site}/games/7/",
                tag="game-7",
            )
            cdp.send(
                "ServiceWorker.deliverPushMessage",
                {
                    "origin": push_site,
                    "registrationId": registration["registrationId"],
                    "data": json.dumps(payload),
                },
            )
            shown: list[dict[str, Any]] = []
            deadline = time.monotonic() + 10
            while not shown and time.monotonic() < deadline:
                page.wait_for_timeout(100)
                shown = notifications_shown(page)
            assert shown == [
                {
                    "title": "Your turn in Friday table: the Dwarf",
                    "body": "Round 2: the party is waiting for you.",
                    "tag": "game-7",
                    "data": {"url": f"{push_site}/games/7/"},
                }
            ]
            assert errors == []

            # A tap: the worker's notificationclick opens the game. DevTools cannot tap a
            # notification, and a click made up in the worker carries no user activation (a
            # browser lets only a real tap open a window), so the worker's own `openWindow` is
            # watched instead of a new tab.
            [worker] = [w for w in context.service_workers if w.url.endswith("/sw.js")]
            opened = worker.evaluate(
                """async () => {
                    const asked = [];
                    self.clients.openWindow = async (url) => { asked.push(url); return null; };
                    const [shown] = await self.registration.getNotifications();
                    const tap = { notification: shown };
                    self.dispatchEvent(new NotificationEvent("notificationclick", tap));
                    for (let i = 0; i < 50 && !asked.length; i++) {
                        await new Promise((done) => setTimeout(done, 20));
                    }
                    return asked;
                }"""
            )
            assert opened == [f"{push_site}/games/7/"]
            assert notifications_shown(page) == []  # the tap closed it

            # An iPhone's Safari outside the Home Screen cannot subscribe: it says how.
            phone = browser.new_context(user_agent=IPHONE)
            phone_page = phone.new_page()
            phone_page.goto(f"{push_site}/accounts/login/")
            phone_page.fill("#id_username", "pia")
            phone_page.fill("#id_password", PASSWORD)
            phone_page.click("form button[type=submit]")
            phone_page.wait_for_load_state()
            phone_page.goto(f"{push_site}/accounts/profile/")
            status = phone_page.text_content("#push-status") or ""
            assert "Add to Home Screen" in status
            assert not phone_page.is_visible("#push-on")
            phone.close()
        finally:
            browser.close()
