from django.urls import include, path

from apps.accounts import views

# django.contrib.auth.urls provides login, logout (POST only), password_change(_done),
# password_reset(_done), password_reset_confirm and password_reset_complete, rendered with
# the templates in templates/registration/.
urlpatterns = [
    path("signup/", views.signup, name="signup"),
    path("profile/", views.profile, name="profile"),
    path("time-zone", views.time_zone_default, name="time_zone_default"),
    path("tokens/<int:token_id>/revoke", views.token_revoke, name="token_revoke"),
    path("calendar/revoke", views.calendar_revoke, name="calendar_revoke"),
    # A new password, however it is set, revokes the API tokens (apps/accounts/signals.py).
    path("", include("django.contrib.auth.urls")),
]
