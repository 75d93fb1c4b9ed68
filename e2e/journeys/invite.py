"""Issue 47, invitations that reach people: an organiser (the host) lists a pick-up game at a place and
invites a friend (the guest) who follows her by username (a mistyped name first, refused with what was typed kept); the
friend finds the invitation under the bell, opens the game, sees who invited him and joins in one step."""

from browser import JourneyFailed

from .challenge import find_and_follow
from .pickup import PLACE
from .team import sign_up


def run(r):
    court = f"{PLACE[0]} court {r.stamp}{r.size[0]} invite"
    organiser, organiser_name = sign_up(r, "host")
    friend, friend_name = sign_up(r, "guest")
    find_and_follow(friend, f"Host {r.stamp}", organiser_name)

    # A game at a place, for four. (The people's names are the journey's own: journeys share a
    # server, and the pick-up journey already has an "organiser".)
    organiser.follow("Places", within="nav.main-nav")
    organiser.follow(PLACE[0], within="main")
    organiser.follow("Organise a game here")
    organiser.fill("Sport", "Basketball").fill("Level", "Intermediate")
    organiser.fill("Start time", "18:30").fill("Place", court)
    organiser.fill("Most players", "4").fill("Players needed to play", "2")
    organiser.press("Create game")
    organiser.sees("Your game is listed", court, "Invite someone")
    game_path = organiser.path

    # A name nobody has is refused, and what was typed stays; the friend's name is taken.
    organiser.fill("Username of someone you follow or who follows you", "nobody_" + r.stamp).press("Invite")
    organiser.sees("Nobody has the username")
    if organiser.field("Username of someone you follow or who follows you").get_attribute("value") != "nobody_" + r.stamp:
        raise JourneyFailed("a refused invitation should keep the username that was typed")
    organiser.fill("Username of someone you follow or who follows you", friend_name).press("Invite")
    organiser.sees(f"Guest {r.stamp} is invited. They will find the game under their notifications.")

    # The friend finds it under the bell and joins from the game's page in one step.
    friend.follow("Notifications", within="header")
    friend.sees(f"Host {r.stamp} invited you to a basketball game")
    friend.follow(f"Host {r.stamp} invited you to a basketball game")
    if friend.path != game_path:
        raise JourneyFailed(f"the invitation should open {game_path}, not {friend.path}")
    friend.sees(f"Host {r.stamp} invited you to this game.", court)
    friend.press("Join game")
    friend.sees("You're in. See you there!", "2 of 4 places taken")

    organiser.visit(game_path)
    organiser.sees("2 of 4 places taken", f"Guest {r.stamp}")
