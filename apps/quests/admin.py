"""The quest workshop (staff only): upload a quest file or edit it, see the validator's problems
with their line numbers (nothing is saved while any remain), preview the map as Zargon sees it at
the start, and restore any earlier revision. Every write goes through apps.quests.services, which
keeps each saved source as a numbered revision and marks the quest as the admin's."""

from __future__ import annotations

from typing import Any, cast

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.utils import unquote
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect, QueryDict
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils.html import format_html
from django.views.decorators.http import require_POST

from apps.accounts.models import User
from apps.games.registry import DEFAULT_GAME, game_face, game_faces
from apps.quests.models import QuestDefinition, QuestRevision
from apps.quests.selectors import quest_revision_changes
from apps.quests.services import (
    QuestFileError,
    quest_create,
    quest_revision_restore,
    quest_save_edit,
    quest_set_enabled,
    quest_start_view,
)

MAX_UPLOAD_BYTES = 256 * 1024  # the shipped quests are under 20 KB


class QuestDefinitionForm(forms.ModelForm[QuestDefinition]):
    game = forms.ChoiceField(
        choices=lambda: [(face.slug, face.name) for face in game_faces()],
        initial=DEFAULT_GAME,
        required=False,  # left out: HeroQuest, the site's first game
        help_text="The game this scenario is for (fixed once it is saved).",
    )
    upload = forms.FileField(
        required=False,
        label="Upload a quest file",
        help_text="A .yaml quest file (docs/quest-format.md). It replaces the source below.",
    )

    class Meta:
        model = QuestDefinition
        fields = ("enabled", "source")
        widgets = {
            "source": forms.Textarea(
                attrs={"rows": 40, "cols": 100, "spellcheck": "false", "class": "quest-source"}
            )
        }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        source = self.fields["source"]
        source.required = False  # an upload may give it instead
        # Kept as typed: an unchanged source must compare equal to the stored one.
        source.strip = False  # type: ignore[attr-defined]
        if self.instance.pk is None:
            # A new quest stays off until an admin has previewed its map and enabled it.
            self.fields["enabled"].initial = False
        else:
            self.fields["game"].initial = self.instance.kind
            self.fields["game"].disabled = True

    def clean(self) -> dict[str, Any]:
        """The engine's quest-file checks on the upload (or the edited source); every problem
        is listed, with its line, under the field it came from."""
        cleaned = super().clean() or {}
        upload = cleaned.get("upload")
        field = "upload" if upload else "source"
        text = self._uploaded_text(upload) if upload else cleaned.get("source") or ""
        if text is None:
            return cleaned
        text = text.replace("\r\n", "\n")  # browsers send a textarea's lines with CRLF
        if not text.strip():
            self.add_error("source", "Upload a quest file or write one here.")
            return cleaned
        slug = self.instance.slug if self.instance.pk else "quest"
        game = self.instance.kind if self.instance.pk else cleaned.get("game") or DEFAULT_GAME
        try:
            quest = game_face(game).scenario_read(text, upload.name if upload else f"{slug}.yaml")
        except QuestFileError as exc:
            self.add_error(field, exc.problems)
            if upload:  # nothing lost: the file comes back in the editor, lines as numbered
                data = cast(QueryDict, self.data).copy()
                data["source"] = text
                self.data = data
            return cleaned
        if self.instance.pk and quest.slug != self.instance.slug:
            self.add_error(
                field,
                f"The file's slug is {quest.slug!r} but this quest is {self.instance.slug!r}; "
                "add it as a new quest instead.",
            )
        elif not self.instance.pk and QuestDefinition.objects.filter(slug=quest.slug).exists():
            self.add_error(
                field, f"A quest with slug {quest.slug!r} already exists; edit that one instead."
            )
        cleaned["source"] = text
        return cleaned

    def _uploaded_text(self, upload: Any) -> str | None:
        if upload.size > MAX_UPLOAD_BYTES:
            self.add_error("upload", f"The file is larger than {MAX_UPLOAD_BYTES // 1024} KB.")
            return None
        try:
            return str(upload.read().decode("utf-8-sig"))
        except UnicodeDecodeError:
            self.add_error("upload", "The file is not UTF-8 text.")
            return None


def _author(request: HttpRequest) -> User | None:
    return request.user if isinstance(request.user, User) else None


@admin.register(QuestDefinition)
class QuestDefinitionAdmin(admin.ModelAdmin[QuestDefinition]):
    form = QuestDefinitionForm
    change_form_template = "admin/quests/questdefinition/change_form.html"
    list_display = ("name", "slug", "enabled", "origin", "updated", "workshop_links")
    list_filter = ("enabled", "origin")
    list_editable = ("enabled",)
    search_fields = ("name", "slug")
    readonly_fields = ("slug", "name", "origin", "updated")

    def get_readonly_fields(
        self, request: HttpRequest, obj: QuestDefinition | None = None
    ) -> tuple[str, ...]:
        # The slug and name come from the file itself.
        return self.readonly_fields if obj is not None else ()

    def get_fields(
        self, request: HttpRequest, obj: QuestDefinition | None = None
    ) -> tuple[str, ...]:
        head = ("slug", "name", "origin", "updated") if obj is not None else ()
        return (*head, "enabled", "upload", "source")

    @admin.display(description="Workshop")
    def workshop_links(self, obj: QuestDefinition) -> str:
        return format_html(
            '<a href="{}">Map preview</a> · <a href="{}">Revisions</a>',
            reverse("admin:quests_questdefinition_preview", args=[obj.pk]),
            reverse("admin:quests_questdefinition_revisions", args=[obj.pk]),
        )

    def save_model(
        self, request: HttpRequest, obj: QuestDefinition, form: forms.ModelForm[Any], change: bool
    ) -> None:
        author = _author(request)
        note = QuestRevision.Note.UPLOAD if form.cleaned_data.get("upload") else None
        if not change:
            created = quest_create(
                source=form.cleaned_data["source"],
                author=author,
                enabled=obj.enabled,
                note=note or QuestRevision.Note.UPLOAD,
                game=form.cleaned_data.get("game") or DEFAULT_GAME,
            )
            obj.pk = created.pk
            obj.refresh_from_db()
        elif "source" in form.cleaned_data:
            quest_save_edit(
                definition=obj,
                source=form.cleaned_data["source"],
                author=author,
                enabled=obj.enabled,
                note=note or QuestRevision.Note.EDIT,
            )
        else:  # the changelist's "enabled" checkbox
            quest_set_enabled(definition=obj, enabled=obj.enabled)

    # -- the workshop pages -------------------------------------------------------------------

    def get_urls(self) -> list[URLPattern]:
        wrap = self.admin_site.admin_view
        name = f"{self.opts.app_label}_{self.opts.model_name}"
        return [
            path(
                "<path:object_id>/preview/",
                wrap(self.preview_view),
                name=f"{name}_preview",
            ),
            path(
                "<path:object_id>/revisions/",
                wrap(self.revisions_view),
                name=f"{name}_revisions",
            ),
            path(
                "<path:object_id>/revisions/<int:number>/restore/",
                wrap(require_POST(self.restore_view)),
                name=f"{name}_restore",
            ),
            *super().get_urls(),
        ]

    def _definition(self, request: HttpRequest, object_id: str, *, change: bool) -> QuestDefinition:
        definition = self.get_object(request, unquote(object_id))
        if definition is None:
            raise Http404("There is no such quest.")
        allowed = (
            self.has_change_permission(request, definition)
            if change
            else self.has_view_permission(request, definition)
        )
        if not allowed:
            raise PermissionDenied
        return definition

    def _context(
        self, request: HttpRequest, definition: QuestDefinition, title: str
    ) -> dict[str, Any]:
        return {
            **self.admin_site.each_context(request),
            "opts": self.opts,
            "original": definition,
            "title": title,
            "has_change_permission": self.has_change_permission(request, definition),
        }

    def preview_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        """The quest's map at the start, as Zargon sees it, drawn by the game's board code."""
        definition = self._definition(request, object_id, change=False)
        context = {
            **self._context(request, definition, f"Map preview: {definition.name}"),
            "start_view": quest_start_view(definition=definition),
        }
        return TemplateResponse(request, "admin/quests/questdefinition/preview.html", context)

    def revisions_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        definition = self._definition(request, object_id, change=False)
        context = {
            **self._context(request, definition, f"Revisions of {definition.name}"),
            "rows": quest_revision_changes(definition=definition),
        }
        return TemplateResponse(request, "admin/quests/questdefinition/revisions.html", context)

    def restore_view(self, request: HttpRequest, object_id: str, number: int) -> HttpResponse:
        definition = self._definition(request, object_id, change=True)
        revision = get_object_or_404(definition.revisions, number=number)
        if revision.source == definition.source:
            self.message_user(request, f"Revision {number} is already the quest's source.")
            return HttpResponseRedirect(
                reverse("admin:quests_questdefinition_revisions", args=[definition.pk])
            )
        quest_revision_restore(revision=revision, author=_author(request))
        self.log_change(request, definition, f"Restored revision {number}.")
        self.message_user(
            request, f"Revision {number} restored as the newest revision.", messages.SUCCESS
        )
        return HttpResponseRedirect(
            reverse("admin:quests_questdefinition_revisions", args=[definition.pk])
        )
