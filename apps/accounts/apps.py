from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "apps.accounts"
    label = "accounts"

    def ready(self) -> None:
        # Django's way: connect the receivers once the app registry is ready (a new password
        # revokes API tokens).
        from apps.accounts import signals  # noqa: F401, PLC0415
