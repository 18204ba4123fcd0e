from django import template

register = template.Library()


@register.filter
def item_label(value: str) -> str:
    """'battle_axe' -> 'battle axe'."""
    return str(value).replace("_", " ")
