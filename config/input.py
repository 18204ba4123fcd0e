"""One gate for unsafe text: NUL bytes and lone surrogates are refused with 400 everywhere.

PostgreSQL cannot store a NUL in text, and a lone surrogate cannot be encoded as UTF-8: both
used to reach the database or the templates and answer 500. This middleware looks at the path,
the query string and the body (form fields, or every string of a JSON body, keys included)
before any view runs, so no field needs its own check: idempotency keys, room names, usernames,
join links... A JSON body too deeply nested to parse is refused the same way.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from typing import Any

from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, HttpResponse, JsonResponse

UNSAFE = re.compile("[\x00\ud800-\udfff]")
TOO_LARGE = "The request is too large."
REFUSED = "The request contains a NUL character or an unpaired surrogate, which are not allowed."


def _strings(value: Any) -> Iterator[str]:
    """Every string in a parsed JSON value (keys too), without recursion."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            yield item
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)


def _unsafe(texts: Iterator[str] | list[str]) -> bool:
    return any(UNSAFE.search(text) for text in texts)


def request_is_unsafe(request: HttpRequest) -> bool:
    if _unsafe([request.path]) or _unsafe(
        [text for key, values in request.GET.lists() for text in (key, *values)]
    ):
        return True
    if request.method in {"GET", "HEAD", "OPTIONS"}:
        return False
    content_type = request.content_type or ""
    if content_type == "application/json":
        try:
            text = request.body.decode("utf-8")
        except UnicodeDecodeError:
            return True
        if "\x00" in text:
            return True
        try:
            parsed = json.loads(text or "null")
        except RecursionError:
            return True
        except ValueError:
            return False  # malformed JSON: the view answers 400 with its own message
        return _unsafe(_strings(parsed))
    if content_type in {"application/x-www-form-urlencoded", "multipart/form-data"}:
        return _unsafe([text for key, values in request.POST.lists() for text in (key, *values)])
    return False


class RefuseUnsafeTextMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        try:
            unsafe = request_is_unsafe(request)
        except RequestDataTooBig:  # over DATA_UPLOAD_MAX_MEMORY_SIZE: read here, refused here
            return _refusal(request, TOO_LARGE, status=413)
        if unsafe:
            return _refusal(request, REFUSED, status=400)
        return self.get_response(request)


def _refusal(request: HttpRequest, detail: str, *, status: int) -> HttpResponse:
    if request.path.startswith("/api/"):
        return JsonResponse({"detail": detail}, status=status)
    return HttpResponse(detail, status=status, content_type="text/plain; charset=utf-8")
