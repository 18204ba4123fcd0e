"""`{{ deadline|until }}`: "in 5 hours", "in 2 days, 3 hours", or "overdue"; `{{ span|span }}`:
a time bank's "2 days 5 hours"."""

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


@register.filter
def span(duration: timedelta | None) -> str:
    if duration is None:
        return ""
    if duration < timedelta(hours=1):
        return f"{int(duration.total_seconds() // 60)} min"
    days, hours = divmod(int(duration.total_seconds() // 3600), 24)
    return " ".join(p for p in (f"{days} d" if days else "", f"{hours} h" if hours else "") if p)
