from django.urls import path

from apps.rooms import views

app_name = "rooms"

urlpatterns = [
    path("new", views.room_create, name="create"),
    path("<int:room_id>/", views.room_detail, name="detail"),
    path("join/<str:code>", views.room_join, name="join"),
    path("<int:room_id>/seats/<int:number>/take", views.seat_take, name="seat_take"),
    path("<int:room_id>/seats/leave", views.seat_leave, name="seat_leave"),
    path("<int:room_id>/cancel", views.room_cancel, name="cancel"),
    path("<int:room_id>/spectators", views.spectators, name="spectators"),
]
