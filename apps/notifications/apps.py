from django.apps import AppConfig


class NotificationsConfig(AppConfig):
    name = "apps.notifications"
    label = "notifications"

    def ready(self) -> None:
        # Registers the deploy checks (email that reaches nobody).
        from apps.notifications import checks  # noqa: F401, PLC0415
