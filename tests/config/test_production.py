import os
import secrets
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_production_profile_passes_check_deploy_with_no_warnings() -> None:
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.production",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "play.example.com",
    }

    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )

    assert result.returncode == 0, result.stderr
    assert "System check identified no issues (0 silenced)." in result.stdout


def test_production_profile_refuses_to_start_without_a_secret_key() -> None:
    env = {k: v for k, v in os.environ.items() if k != "SECRET_KEY"}
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


def production_run(script: str, **extra: str) -> list[str]:
    env = {
        **os.environ,
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
