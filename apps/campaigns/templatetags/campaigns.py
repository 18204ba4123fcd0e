from django import template

register = template.Library()


@register.filter
def item_label(value: str) -> str:
    """'battle_axe' -> 'battle axe'."""
    return str(value).replace("_", " ")


OUTCOMES = {
    "heroes": "won",
    "zargon": "lost",
    "retreat": "retreated",
    "abandoned": "abandoned",
}


@register.filter
def outcome_label(value: str) -> str:
    """A campaign room's outcome as the campaign page says it: 'retreat' -> 'retreated'."""
    return OUTCOMES.get(str(value), str(value))
