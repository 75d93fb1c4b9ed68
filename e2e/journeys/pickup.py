"""The pick-up journey: someone organises a small game at a place; a player finds it near that place
with filters and joins; the next is waitlisted because it is full; when the first leaves, the one
waiting is offered the place and takes it."""

from selenium.webdriver.common.by import By

from browser import JourneyFailed
from words import found_in

from .team import sign_up

# Superkilen, a demo place with a basketball court.
PLACE = ("Superkilen", "55.6999", "12.5425")


def search_near_place(b, court, day):
    """Games → Find a game, then the search a person types: near the place, basketball, a level, an age, one day."""
    b.follow("Games", within="nav.main-nav")
    b.follow("Find a game", within="main")
    b.sees("Find a game")
    b.fill("Latitude", PLACE[1]).fill("Longitude", PLACE[2]).fill("Within", "2")
    b.fill("Sport", "Basketball").fill("Level", "Intermediate").fill("Age group", "18+")
    b.fill("From", day).fill("To", day)
    b.press("Search")
    b.sees("Games near you", "Basketball pick-up game", court)
    return b


def result_for(b, court):
    """The search result for the game at `court`, as its card reads."""
    for card in b.driver.find_elements(By.CSS_SELECTOR, "main a"):
        if court in card.text:
            return card.text
    raise JourneyFailed(f"{b.who} sees no result at {court} on {b.path}")


def run(r):
    court = f"{PLACE[0]} court {r.stamp}{r.size[0]}"

    # The organiser finds the place and organises a basketball game for two there.
    organiser, _ = sign_up(r, "organiser")
    organiser.follow("Places", within="nav.main-nav")
    organiser.follow(PLACE[0], within="main")
    organiser.sees(PLACE[0], "Games here")
    organiser.follow("Organise a game here")
    organiser.sees("Organise a pick-up game")
    if organiser.field("Latitude").get_attribute("value") != PLACE[1]:
        raise JourneyFailed("the game form should start at the place's position")
    organiser.fill("Sport", "Basketball").fill("Level", "Intermediate")
    organiser.fill("Start time", "17:15").fill("Place", court)
    if organiser.field("Latitude").get_attribute("value") != PLACE[1]:
        raise JourneyFailed("naming the court (which offers place suggestions) should keep the place's position")
    organiser.fill("Most players", "2").fill("Players needed to play", "2")
    organiser.fill("Description", "Half-court two-on-two. Bring a light and a dark shirt.")
    day = organiser.field("Date").get_attribute("value")
    organiser.press("Create game")
    organiser.sees("Your game is listed", "Basketball pick-up game", court, "1 of 2 places taken")
    game_path = organiser.path

    # A player searches near the place with filters, finds the game and joins it.
    first, first_name = sign_up(r, "first")
    search_near_place(first, court, day)
    if not found_in(result_for(first, court), "1 of 2 places taken"):
        raise JourneyFailed(f"the result should say 1 of 2 places are taken: {result_for(first, court)!r}")
    first.follow(court)
    if first.path != game_path:
        raise JourneyFailed(f"the result should open {game_path}, not {first.path}")
    first.sees("Half-court two-on-two")
    first.fill("Note to the organiser", "I can bring a ball").press("Join game")
    first.sees("You're in. See you there!", "2 of 2 places taken", "I can bring a ball")

    # The next player (without JavaScript: the search and the join are plain forms) finds it full
    # and goes on the waitlist.
    second, second_name = sign_up(r, "second", javascript=False)
    search_near_place(second, court, day)
    if not found_in(result_for(second, court), "Full: waitlist"):
        raise JourneyFailed(f"the result should say the game is full: {result_for(second, court)!r}")
    second.follow(court)
    second.sees("The game is full")
    second.press("Join the waitlist")
    second.sees("you're on the waitlist", "number 1 on the waitlist")

    # The first player leaves; the place is held for the one waiting, who sees it and takes it.
    first.press("Leave game")
    first.sees("You've left the game")

    second.follow("Notifications", within="header")
    second.sees("A place opened up in the basketball game")
    second.follow("A place opened up in the basketball game")
    if second.path != game_path:
        raise JourneyFailed(f"the notification should open {game_path}, not {second.path}")
    second.sees("A place opened up and is held for you until", "Offered a place")
    second.press("Take the place")
    second.sees("You're in.", "Joined", "2 of 2 places taken").does_not_see("on the waitlist")

    organiser.visit(game_path)
    organiser.sees("2 of 2 places taken", f"Second {r.stamp}").does_not_see(f"First {r.stamp}")
