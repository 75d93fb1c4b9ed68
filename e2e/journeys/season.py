"""Issue 47, organising a season: a league manager makes a league of the three demo futsal teams,
whose managers accept, schedules its season home and away from a preview, and moves a fixture;
then, in the demo league whose first round was played last week, one manager enters the score, the
other team's manager confirms it, and the table changes."""

from browser import JourneyFailed

HOME, AWAY, THIRD = "Old Town Futsal", "Riverside Futsal", "Northside Rovers"
FIRST_ROUND = f"{HOME} vs. {AWAY}"  # the teams in name order make this round 1 (Northside rests)


def riverside_played(browser):
    """How many games count for Riverside in the league table (its "P" column), as the page shows it."""
    return int(browser.driver.execute_script(
        "const row = [...document.querySelectorAll('table.league-table tbody tr')].find(r => r.textContent.includes(arguments[0]));"
        " return row ? row.children[2].textContent.trim() : '-1';", AWAY))


def schedule(r, maya, jonas, sam):
    league = f"Season Cup {r.stamp}{r.size[0]}"
    maya.visit("/leagues").follow("Create a league", within="main")
    maya.fill("League name", league).fill("Sport", "Futsal").fill("Public: anyone can see the teams and standings", True)
    maya.press("Create league")
    maya.sees(f"{league} is created. Invite teams below.", "No season is scheduled yet.")
    league_path = maya.path
    maya.fill("Team", AWAY).press("Invite")
    maya.sees(f"{AWAY} is in the league.")
    for team in (HOME, THIRD):
        maya.fill("Team", team).press("Invite")
        maya.sees(f"{team} is invited; its managers will see the invitation.")
    for manager, team in ((jonas, HOME), (sam, THIRD)):
        manager.visit(league_path).press(f"Accept for {team}")
        manager.sees(f"{team} joined {league}.")

    # The manager previews the season before anything is made, then confirms it.
    maya.visit(league_path).follow("Schedule the season", within="main")
    maya.sees(f"Schedule the season of {league}", HOME, THIRD)
    maya.fill("Twice: home and away", True).fill("Kick-off", "19:45")
    maya.press("Preview the fixtures")
    maya.sees("Round 1", "Round 6", f"Bye: {THIRD}", "Old Town School Gym")
    maya.press("Create the 6 games")
    maya.sees("6 fixtures are scheduled; the teams have been told.", "Round 6", FIRST_ROUND, f"Bye: {THIRD}")
    if maya.path != league_path:
        raise JourneyFailed(f"scheduling should lead back to the league {league_path}, not {maya.path}")

    # The league's manager moves round 1 from its page: both teams' games move.
    maya.follow(FIRST_ROUND, within="main")
    maya.follow("Edit time, place or details")
    maya.fill("Start time", "20:30").press("Save changes")
    maya.sees("Saved. Members were told and asked to answer again.", "20:30")
    # The home team's own game moved with it.
    jonas.visit(league_path).follow(FIRST_ROUND, within="main")
    jonas.sees(f"{HOME} vs. {AWAY}", "20:30")


def result(r, maya, jonas):
    # Last week's first round of the demo league: Riverside's manager enters the score.
    scores = ("3", "1") if r.size == "desktop" else ("1", "2")
    visitor = r.person()
    maya.visit("/leagues/city-futsal-league").follow(FIRST_ROUND, within="main")
    maya.fill(AWAY, scores[0]).fill(HOME, scores[1]).press("Save score")
    maya.sees("Score saved. It counts in the table once the other team's manager confirms it.", f"(waiting for {HOME} to confirm)")
    # Until the other team agrees, the league shows the score as waiting and the table leaves it out.
    visitor.visit("/leagues/city-futsal-league")
    visitor.sees(f"{scores[1]}–{scores[0]}", "(awaiting confirmation)")
    before = riverside_played(visitor)

    # Old Town's manager is told, checks the score from their side and confirms it.
    jonas.follow("Notifications", within="header")
    told = f"{AWAY} entered the result of {AWAY} vs. {HOME}: {scores[0]}–{scores[1]}. Please confirm or correct it."
    jonas.sees(told).follow(told)
    jonas.sees(f"{HOME} {scores[1]}–{scores[0]} {AWAY}").press("Confirm the score")
    jonas.sees("Score confirmed; the league table is updated.")

    visitor.visit("/leagues/city-futsal-league")
    visitor.sees(f"{scores[1]}–{scores[0]}").does_not_see("(awaiting confirmation)")
    after = riverside_played(visitor)
    if after != before + 1:
        raise JourneyFailed(f"the confirmed score should count for Riverside: {after} games counted, {before} before")


def run(r):
    maya, jonas, sam = r.person("maya"), r.person("jonas"), r.person("sam")
    schedule(r, maya, jonas, sam)
    result(r, maya, jonas)
