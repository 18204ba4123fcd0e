from django.apps import AppConfig


class PlayConfig(AppConfig):
    name = "apps.play"
    label = "play"

    def ready(self) -> None:
        # Connect the receivers once the app registry is ready (an away player moves clocks).
        from apps.play import clock_live  # noqa: F401, PLC0415
