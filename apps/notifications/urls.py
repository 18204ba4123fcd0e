from django.urls import path

from apps.notifications import views
from apps.notifications.push import views as push

app_name = "notifications"

urlpatterns = [
    path("", views.notification_list, name="list"),
    path("read", views.notification_read_all, name="read_all"),
    path("<int:notification_id>/", views.notification_open, name="open"),
    path("<int:notification_id>/read", views.notification_read, name="read"),
    path("unsubscribe/<str:token>", views.unsubscribe, name="unsubscribe"),
    path("push/subscribe", push.subscribe, name="push_subscribe"),
    path("push/<int:subscription_id>/remove", push.unsubscribe, name="push_remove"),
]
