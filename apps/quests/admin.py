"""Admin for quest definitions: the YAML source is edited in a monospace textarea and
validated by the rules engine before it is saved."""

from django import forms
from django.contrib import admin

from apps.quests.models import QuestDefinition
from apps.rules.questfile import validate_quest_text


class QuestDefinitionForm(forms.ModelForm[QuestDefinition]):
    class Meta:
        model = QuestDefinition
        fields = ("slug", "name", "enabled", "source")
        widgets = {
            "source": forms.Textarea(
                attrs={
                    "rows": 40,
                    "cols": 100,
                    "spellcheck": "false",
                    "style": "font-family: ui-monospace, monospace; width: 100%; tab-size: 2;",
                }
            )
        }

    def clean_source(self) -> str:
        """The engine's quest-file checks; every problem is listed under the source."""
        source: str = self.cleaned_data["source"]
        slug = self.cleaned_data.get("slug") or "quest"
        problems = validate_quest_text(source, name=f"{slug}.yaml")
        if problems:
            raise forms.ValidationError(problems)
        return source


@admin.register(QuestDefinition)
class QuestDefinitionAdmin(admin.ModelAdmin[QuestDefinition]):
    form = QuestDefinitionForm
    list_display = ("name", "slug", "enabled", "updated")
    list_filter = ("enabled",)
    list_editable = ("enabled",)
    search_fields = ("name", "slug")
    prepopulated_fields = {"slug": ("name",)}
    readonly_fields = ("updated",)
