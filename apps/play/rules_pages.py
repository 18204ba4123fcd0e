"""The rules pages: for each game the rules for players (/rules/<slug>/, its face's
`rules_documents.players`) and the site's complete reference (/rules/<slug>/reference/), both
Markdown documents of the project; /rules/ lists the games. Reachable from every page."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import markdown
from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from markdown.extensions.toc import slugify

from apps.games.port import GameFace, RulesDocuments, RulesPages
from apps.games.registry import UnknownGame, game_face, game_faces


def rules_documents(face: GameFace) -> RulesDocuments | None:
    """The game's rules documents (apps/games/port.py, `RulesPages`), or None: it has none."""
    return face.rules_documents if isinstance(face, RulesPages) else None


def rules_url(face: GameFace) -> str:
    """Where a player of `face` reads its rules: its own page, or the list of games."""
    if rules_documents(face) is None:
        return reverse("play:rules")
    return reverse("play:rules_game", args=[face.slug])


@dataclass(frozen=True)
class RulesText:
    html: str  # the document's body
    toc: str  # its table of contents (nested lists of links)
    title: str  # its first heading


def _section_slug(value: str, separator: str) -> str:
    """Numbered sections get stable anchors ("7. Traps" -> "rules-7") that game logs link to."""
    number = re.match(r"\s*(\d+[a-z]?)\.", value)
    return f"rules-{number[1]}" if number else slugify(value, separator)


@cache
def _render(path: Path, mtime: float) -> RulesText:
    """A rules document as HTML; cached per file version. Headings may carry their own anchor
    (`## Traps {#rules-7}`, the players' pages, so the story's citations land there); a block
    `!!! site "On this site"` is a callout: the site's own reading of a rule."""
    md = markdown.Markdown(
        extensions=["tables", "attr_list", "admonition", "toc"],
        # The contents list the sections (h2), not the page's own title (h1).
        extension_configs={"toc": {"slugify": _section_slug, "toc_depth": "2-2"}},
    )
    body = md.convert(path.read_text(encoding="utf-8"))
    # Wide tables scroll sideways on a phone, in a region the keyboard can reach too.
    body = body.replace(
        "<table>", '<div class="table-wrap" tabindex="0" role="region" aria-label="Table"><table>'
    ).replace("</table>", "</table></div>")
    # The site's own readings are notes beside the rules (role "note": read as such).
    note = '<div class="admonition site" role="note">'
    body = body.replace('<div class="admonition site">', note)
    title = re.search(r"<h1[^>]*>(.*?)</h1>", body, flags=re.DOTALL)
    return RulesText(
        html=body,
        toc=str(getattr(md, "toc", "")),
        title=re.sub(r"<[^>]+>", "", title[1]) if title else "Rules",
    )


def rules_text(document: str) -> RulesText:
    """The document at `document` (a path from the project's root) as HTML."""
    path = Path(settings.BASE_DIR) / document
    return _render(path, path.stat().st_mtime)


def _face_with_rules(slug: str) -> tuple[GameFace, RulesDocuments]:
    try:
        face = game_face(slug)
    except UnknownGame:
        raise Http404("There is no such game here.") from None
    documents = rules_documents(face)
    if documents is None:
        raise Http404("This game has no rules pages.")
    return face, documents


def rules_links() -> list[dict[str, str]]:
    """Every game with rules pages: its name, summary, players' page and reference."""
    return [
        {
            "name": face.name,
            "summary": face.table_summary,
            "url": reverse("play:rules_game", args=[face.slug]),
            "reference_url": reverse("play:rules_reference", args=[face.slug]),
        }
        for face in game_faces()
        if rules_documents(face) is not None
    ]


def rules_index(request: HttpRequest) -> HttpResponse:
    """Every game's rules, for players and in full."""
    return render(request, "play/rules_index.html", {"games": rules_links()})


def rules_page(request: HttpRequest, slug: str) -> HttpResponse:
    """A game's rules for players, the site's readings marked."""
    face, documents = _face_with_rules(slug)
    text = rules_text(documents.players)
    context = {
        "face": face,
        "text": text,
        "reference": False,
        "other_url": reverse("play:rules_reference", args=[face.slug]),
    }
    return render(request, "play/rules.html", context)


def rules_reference(request: HttpRequest, slug: str) -> HttpResponse:
    """A game's complete reference: every rule and decision the site's engine plays by."""
    face, documents = _face_with_rules(slug)
    text = rules_text(documents.reference)
    context = {
        "face": face,
        "text": text,
        "reference": True,
        "other_url": reverse("play:rules_game", args=[face.slug]),
    }
    return render(request, "play/rules.html", context)
