"""Issue 23, the team journey: a manager signs up, makes a team, invites a friend who accepts, schedules a
game that two people answer, finds a substitute nearby, and the game shows in both calendar feeds."""

import urllib.request

from browser import JourneyFailed

# The team's home ground, and the substitute's home area: a spot no demo game uses, so the game is
# the nearest one the substitute finds.
GROUND = ("55.6641", "12.5979")


def sign_up(r, word, javascript=True):
    """A fresh person named after their part in the journey: their browser and username."""
    username = r.unique(word)
    return r.newcomer(f"{word.capitalize()} {r.stamp}", username, javascript), username


def calendar_feed(url):
    """The .ics feed as a calendar program reads it (no cookies), with folded lines joined again."""
    with urllib.request.urlopen(url, timeout=15) as response:
        if response.status != 200 or "text/calendar" not in response.headers.get("Content-Type", ""):
            raise JourneyFailed(f"calendar feed {url} answered {response.status} {response.headers.get('Content-Type')}")
        text = response.read().decode("utf-8")
    return text.replace("\r\n ", "").replace("\\,", ",").replace("\\;", ";")


def run(r):
    team_name = f"Harbour Strikers {r.stamp}{r.size[0]}"
    opponent = f"Canal Rovers {r.size}"

    # The manager signs up and creates a team with a home ground.
    manager, manager_name = sign_up(r, "manager")
    manager.follow("Teams", within="nav.main-nav")
    manager.sees("My teams", "You are not in a team yet")
    manager.follow("Create a team", within="main")
    manager.fill("Team name", team_name).fill("Sport", "Futsal").fill("Level", "Intermediate")
    manager.fill("Protected: anyone can find it", True)
    # The place field suggests towns as it is typed; choosing one fills in the coordinates...
    manager.fill("Place", "Copenh")
    town = manager.wait_until("a suggestion for Copenhagen", lambda d: d.execute_script(
        "const o = [...document.querySelectorAll('#place-suggestions option')].find(o => o.value.startsWith('Copenhagen'));"
        " return o && o.value;"))
    manager.fill("Place", town)
    if not manager.field("Latitude").get_attribute("value").startswith("55.6"):
        raise JourneyFailed(f"choosing {town!r} should fill in Copenhagen's latitude, not {manager.field('Latitude').get_attribute('value')!r}")
    # ...and typing a name of one's own clears what the suggestion filled, for the ground's own.
    manager.fill("Place", "Christianshavn Hall")
    if manager.field("Latitude").get_attribute("value"):
        raise JourneyFailed("typing a name of one's own should clear the coordinates a suggestion filled in")
    manager.fill("Latitude", GROUND[0]).fill("Longitude", GROUND[1])
    manager.fill("About the team", "Tuesday futsal, friendly but keen.")
    manager.press("Create team")
    manager.sees(f"{team_name} is ready", "You are Owner in this team", "No games scheduled yet")
    team_path = manager.path

    # ...and invites a demo friend by username. Ingrid is an adult, so a stranger may invite her.
    manager.fill("Username to invite", "ingrid").press("Invite")
    manager.sees("Ingrid Holm is invited", "Waiting for an answer")

    # The friend signs in (without JavaScript: every form here must post on its own), finds the
    # invitation under the bell and accepts it.
    friend = r.person("ingrid", javascript=False)
    friend.follow("Notifications", within="header")
    friend.sees(f"invited you to join {team_name}")
    friend.follow(f"invited you to join {team_name}")
    friend.sees("Invitations", team_name)
    friend.press(f"Accept", within="main")
    friend.sees(f"Welcome to {team_name}!", "You are Player in this team")
    if friend.path != team_path:
        raise JourneyFailed(f"accepting should lead to the team page {team_path}, not {friend.path}")

    # The manager sees the new player and schedules a game.
    manager.visit(team_path)
    manager.sees("Ingrid Holm").does_not_see("Waiting for an answer")
    manager.follow("Schedule a game")
    manager.sees(f"New game for {team_name}")
    manager.fill("Opponent", opponent).fill("Start time", "18:45")
    manager.press("Schedule game")
    manager.sees("Game scheduled; every member has been told", f"{team_name} vs. {opponent}", "Christianshavn Hall")
    manager.does_not_see("Notes")  # none were written, so no empty Notes box
    game_path = manager.path

    # Two people answer: the manager is going; the friend (still without JavaScript) maybe, with a note.
    manager.fill("Going", True).press("Save answer")
    manager.sees("Thanks: you answered “Going”")
    friend.follow("Notifications", within="header")
    friend.sees(f"New game for {team_name}")
    friend.follow(f"New game for {team_name}")
    if friend.path != game_path:
        raise JourneyFailed(f"the notification should open the game {game_path}, not {friend.path}")
    friend.sees("You haven't answered yet", "Are you playing?")
    friend.fill("Maybe", True).fill("Note", "Back from a trip that day, might be 10 minutes late")
    friend.press("Save answer")
    friend.sees("Thanks: you answered “Maybe”", "Back from a trip that day, might be 10 minutes late")

    manager.visit(game_path)
    manager.sees("Maybe", "Back from a trip that day, might be 10 minutes late")

    # Short of players: the manager asks for one substitute.
    manager.fill("Substitutes needed", "1").press("Ask for substitutes")
    manager.sees("Looking for 1 substitute", "0 of 1 substitute places filled")

    # A player who lives nearby signs up, sets a home area, and finds the game in Find.
    sub, sub_name = sign_up(r, "sub")
    sub.fill("Height", "181").fill("Weight", "76")
    # The home area by its name alone: the server looks it up (the gazetteer) and says so.
    sub.fill("Place name", "Christianshavn")
    sub.press("Save profile")
    sub.sees("Home area: Christianshavn, Denmark")
    sub.follow("Games", within="nav.main-nav")
    sub.follow("Find a game", within="main")
    sub.sees("Games near you")  # from the home area, without typing a place
    # With results on the page the filters are folded into one line above them.
    sub.unfold("Filters").fill("Sport", "Futsal").press("Search")
    sub.sees("Games near you", f"{team_name} vs. {opponent}", "1 substitute wanted").does_not_see("Volleyball pick-up game")
    sub.follow(f"{team_name} vs. {opponent}")
    sub.sees("This team needs 1 more substitute")
    sub.press("Claim a substitute place")
    sub.sees("You're in as a substitute", "Substitute")

    manager.visit(game_path)
    manager.sees("All 1 substitute places are filled", "Substitute")

    # The game is in the team's calendar feed (the link on the team page) and the manager's own feed
    # (the address in calendar settings, reached from My games); and in the substitute's.
    manager.visit(team_path)
    team_feed = calendar_feed(manager.link("team calendar feed"))
    game_id = game_path.rstrip("/").split("/")[-1]
    for words in [f"X-WR-CALNAME:Fieldhouse: {team_name}", f"SUMMARY:{team_name} vs. {opponent}", game_id]:
        if words not in team_feed:
            raise JourneyFailed(f"the team calendar feed lacks {words!r}: {team_feed[:800]!r}")

    manager.follow("Games", within="nav.main-nav")
    manager.sees(f"{team_name} vs. {opponent}")
    manager.follow("Add to my calendar", within="main")
    personal = manager.field("Your calendar address").get_attribute("value")
    feed = calendar_feed(personal)
    for words in [f"SUMMARY:{team_name} vs. {opponent}", game_id, "Your answer: Going"]:
        if words not in feed:
            raise JourneyFailed(f"the manager's calendar feed lacks {words!r}: {feed[:800]!r}")

    sub.follow("Games", within="nav.main-nav")
    sub.follow("Add to my calendar", within="main")
    feed = calendar_feed(sub.field("Your calendar address").get_attribute("value"))
    for words in [f"SUMMARY:{team_name} vs. {opponent}", "Your answer: Substitute"]:
        if words not in feed:
            raise JourneyFailed(f"the substitute's calendar feed lacks {words!r}: {feed[:800]!r}")
