"""A request with a `Host` the site does not serve is refused (400) and logged once, in one
line without a traceback (it was logged twice, each with its traceback: config/errors.py)."""

import logging

import pytest
from django.test import Client


@pytest.mark.django_db
def test_a_bad_host_is_logged_once_without_a_traceback(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)

    response = Client(HTTP_HOST="evil.example").get("/rooms/new")

    assert response.status_code == 400
    records = [r for r in caplog.records if r.name == "django.security.DisallowedHost"]
    assert len(records) == 1
    (record,) = records
    assert (record.levelname, record.exc_info, record.exc_text) == ("WARNING", None, None)
    assert "Invalid HTTP_HOST header: 'evil.example'" in record.getMessage()
    assert "(path '/rooms/new')" in record.getMessage()
    assert "Traceback" not in caplog.text
