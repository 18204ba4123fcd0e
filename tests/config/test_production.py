import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
# The services the profile requires; it only needs to reach them where a test asks it to.
SERVICES = {
    "DATABASE_URL": os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/absent"),
    "REDIS_URL": os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0"),
}


def check_deploy(**environment: str) -> subprocess.CompletedProcess[str]:
    env = {
        **{k: v for k, v in os.environ.items() if k != "EMAIL_URL"},
        **SERVICES,
        "DJANGO_SETTINGS_MODULE": "config.production",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "play.example.com",
        **environment,
    }
    return subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_production_profile_passes_check_deploy_with_no_warnings() -> None:
    result = check_deploy(EMAIL_URL="smtp+tls://ashen:secret@smtp.example.com:587")

    assert result.returncode == 0, result.stderr
    assert "System check identified no issues (0 silenced)." in result.stdout


def test_check_deploy_warns_when_no_email_would_reach_anyone() -> None:
    """Without EMAIL_URL the profile sent every email to the worker's log, and nothing said so."""
    result = check_deploy()

    assert result.returncode == 1
    assert "(notifications.W001) Email is not sent: the email backend prints every email to " in (
        result.stderr
    )
    assert "HINT: Set EMAIL_URL, e.g. EMAIL_URL=smtp+tls://" in result.stderr


def test_the_readmes_way_of_making_a_secret_key_passes_check_deploy() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    command = 'python -c "import secrets; print(secrets.token_urlsafe(50))"'
    assert command in readme
    key = subprocess.run(
        [sys.executable, "-c", "import secrets; print(secrets.token_urlsafe(50))"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()

    result = check_deploy(SECRET_KEY=key, EMAIL_URL="smtp://smtp.example.com:25")

    assert result.returncode == 0, result.stderr


def test_production_profile_refuses_to_start_without_a_secret_key() -> None:
    env = {k: v for k, v in os.environ.items() if k != "SECRET_KEY"}
    env.update(SERVICES)
    env.update({"DJANGO_SETTINGS_MODULE": "config.production", "ALLOWED_HOSTS": "x.example"})

    result = subprocess.run(
        [sys.executable, "manage.py", "check"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )

    assert result.returncode != 0
    assert "SECRET_KEY" in result.stderr


@pytest.mark.parametrize("missing", ["DATABASE_URL", "REDIS_URL"])
def test_production_profile_refuses_to_start_without_its_services(missing: str) -> None:
    env = {k: v for k, v in os.environ.items() if k != missing}
    env.update({k: v for k, v in SERVICES.items() if k != missing})
    env.update(
        {
            "DJANGO_SETTINGS_MODULE": "config.production",
            "SECRET_KEY": secrets.token_urlsafe(50),
            "ALLOWED_HOSTS": "x.example",
        }
    )

    result = subprocess.run(
        [sys.executable, "manage.py", "check"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )

    assert result.returncode != 0
    assert f"ImproperlyConfigured: config.production needs {missing}" in result.stderr


def test_default_profile_refuses_debug_with_the_dev_secret_key_outside_development() -> None:
    env = {k: v for k, v in os.environ.items() if k not in {"SECRET_KEY", "DJANGO_DEV", "DEBUG"}}
    env["DJANGO_SETTINGS_MODULE"] = "config.settings"

    refused = subprocess.run(
        [sys.executable, "manage.py", "check"], cwd=ROOT, env=env, capture_output=True, text=True
    )
    allowed = subprocess.run(
        [sys.executable, "manage.py", "check"],
        cwd=ROOT,
        env={**env, "DJANGO_DEV": "1"},
        capture_output=True,
        text=True,
    )
    with_own_key = subprocess.run(
        [sys.executable, "manage.py", "check"],
        cwd=ROOT,
        env={**env, "SECRET_KEY": secrets.token_urlsafe(50)},
        capture_output=True,
        text=True,
    )

    assert refused.returncode != 0
    assert "DEBUG is on with the public development SECRET_KEY" in refused.stderr
    assert allowed.returncode == 0, allowed.stderr
    assert with_own_key.returncode == 0, with_own_key.stderr


def production_run(script: str, **extra: str) -> list[str]:
    env = {
        **os.environ,
        **SERVICES,
        "DJANGO_SETTINGS_MODULE": "config.production",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "testserver",
        **extra,
    }
    code = "import django; django.setup()\n" + script
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.split()


def test_healthz_answers_on_plain_http_while_pages_redirect_to_https() -> None:
    statuses = production_run(
        "from django.test import Client\n"
        "c = Client()\n"
        "print(c.get('/healthz').status_code, c.get('/accounts/login/').status_code)"
    )

    assert statuses[1] == "301"
    assert statuses[0] in {"200", "503"}  # the probe sees the truth, not a redirect


def test_the_proxy_header_is_trusted_only_when_configured() -> None:
    show = "from django.conf import settings\nprint(settings.SECURE_PROXY_SSL_HEADER)"

    assert production_run(show) == ["None"]
    assert production_run(show, SECURE_PROXY_SSL_HEADER_TRUSTED="true") == [
        "('HTTP_X_FORWARDED_PROTO',",
        "'https')",
    ]


def test_the_profile_can_be_tried_over_plain_http_before_tls() -> None:
    """README, Deploying: SECURE_SSL_REDIRECT=false and SECURE_COOKIES=false serve the profile
    over http (pages answer, cookies are sent back), and check --deploy says what is still off."""
    trial = {"SECURE_SSL_REDIRECT": "false", "SECURE_COOKIES": "false"}
    shown = production_run(
        "from django.conf import settings\n"
        "from django.test import Client\n"
        "r = Client().get('/api/openapi.json')\n"
        "print(r.status_code, settings.SESSION_COOKIE_SECURE, settings.CSRF_COOKIE_SECURE)",
        **trial,
    )
    result = check_deploy(EMAIL_URL="smtp://smtp.example.com:25", **trial)

    assert shown == ["200", "False", "False"]  # served over http, not redirected
    for check in ("security.W008", "security.W012", "security.W016"):  # the reminders
        assert check in result.stderr
