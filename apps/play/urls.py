from django.urls import path

from apps.play import clock_views, rules_pages, views

app_name = "play"

urlpatterns = [
    path("rooms/<int:room_id>/launch", views.launch, name="launch"),
    path("games/<int:game_id>/", views.game_page, name="game"),
    path("rules/", rules_pages.rules_index, name="rules"),
    path("rules/<slug:slug>/", rules_pages.rules_page, name="rules_game"),
    path("rules/<slug:slug>/reference/", rules_pages.rules_reference, name="rules_reference"),
    path("games/<int:game_id>/pause", views.pause, name="pause"),
    path("games/<int:game_id>/resume", views.resume, name="resume"),
    path("games/<int:game_id>/replay/", views.replay_page, name="replay"),
    path("games/<int:game_id>/replay/public", views.replay_public, name="replay_public"),
    path("games/<int:game_id>/spectators", views.spectators, name="spectators"),
    # The links a host shares (apps/play/links.py): unguessable, unlike the ids.
    path("games/watch/<str:token>/", views.watch_link, name="watch"),
    path("replays/<str:token>/", views.replay_link_page, name="replay_link"),
    path("games/<int:game_id>/extend", clock_views.extend_vote, name="extend"),
    path("rooms/<int:room_id>/webhook", clock_views.room_webhook, name="room_webhook"),
    path(
        "campaigns/<int:campaign_id>/webhook",
        clock_views.campaign_webhook,
        name="campaign_webhook",
    ),
    path("calendar/<str:token>.ics", clock_views.calendar, name="calendar"),
]
