from django.urls import path

from apps.campaigns import views

app_name = "campaigns"

urlpatterns = [
    path("", views.campaign_list, name="list"),
    path("new", views.campaign_create, name="create"),
    path("<int:campaign_id>/", views.campaign_detail, name="detail"),
    path("<int:campaign_id>/next", views.next_quest, name="next_quest"),
    path("<int:campaign_id>/rooms/<int:room_id>/abandon", views.abandon_room, name="abandon_room"),
    path("<int:campaign_id>/heroes/<int:sheet_id>/armory", views.armory, name="armory"),
    path("<int:campaign_id>/heroes/<int:sheet_id>/sell", views.armory_sell, name="sell"),
    path("<int:campaign_id>/heroes/<int:sheet_id>/wield", views.wield, name="wield"),
    path("<int:campaign_id>/heroes/<int:sheet_id>/give", views.gold_give, name="gold_give"),
    path(
        "<int:campaign_id>/heroes/<int:sheet_id>/give-potions",
        views.potions_give,
        name="potions_give",
    ),
]
