"""`{{ deadline|until }}`: "in 5 hours", "in 2 days, 3 hours", or "overdue"."""

from datetime import datetime, timedelta

from django import template
from django.utils import timezone
from django.utils.timesince import timeuntil

register = template.Library()


@register.filter
def until(moment: datetime | None) -> str:
    if moment is None:
        return ""
    if moment <= timezone.now():
        return "overdue"
    # "in 5 hours" within a day, "in 2 days, 3 hours" beyond.
    return f"in {timeuntil(moment, depth=1 if moment - timezone.now() < timedelta(days=1) else 2)}"
