"""Rooms know their game (every room so far plays HeroQuest), and the seat the AI may play is
named for what it is, not for HeroQuest's Zargon. The seat range is the game's own now (its
face's min and max seats, checked by the rooms service); the table keeps a sanity bound."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("rooms", "0005_room_invite_only")]

    operations = [
        migrations.AddField(
            model_name="room",
            name="kind",
            field=models.CharField(default="heroquest", max_length=20),
        ),
        migrations.RenameField(model_name="room", old_name="zargon", new_name="ai_seat"),
        migrations.AlterField(
            model_name="room",
            name="ai_seat",
            field=models.CharField(
                choices=[("human", "A player"), ("ai", "The AI")], default="human", max_length=5
            ),
        ),
        migrations.RemoveConstraint(model_name="room", name="room_seats_2_to_5"),
        migrations.AddConstraint(
            model_name="room",
            constraint=models.CheckConstraint(
                condition=models.Q(("seat_count__gte", 1), ("seat_count__lte", 8)),
                name="room_seats_1_to_8",
            ),
        ),
    ]
