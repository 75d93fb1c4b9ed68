"""Issue 47, talking: two teammates talk in their team's conversation and see each other's messages
arrive without reloading; a 15-year-old and an adult who follow each other, but share no team, cannot
start a conversation."""

import datetime

from browser import JourneyFailed


def sign_up(r, word, born="1990-04-12"):
    username = r.unique(word)
    return r.newcomer(f"{word.capitalize()} {r.stamp}", username, born=born), username


def arrives(reader, text, what):
    """Waits, without reloading, for `text` in the open conversation: the server's event put it there."""
    reader.wait_until(what, lambda d: d.execute_script(
        "const l = document.querySelector('ol.messages'); return l && l.innerText.includes(arguments[0]);", text), seconds=20)
    return reader.landed(what)


def run(r):
    # A captain makes a team and invites a winger, who accepts.
    captain, _ = sign_up(r, "captain")
    winger, winger_name = sign_up(r, "winger")
    team_name = f"Canal Talkers {r.stamp}{r.size[0]}"
    captain.visit("/teams/new")
    captain.fill("Team name", team_name).fill("Sport", "Futsal").fill("Protected: anyone can find it", True)
    captain.press("Create team")
    captain.sees(f"{team_name} is ready")
    team_path = captain.path
    captain.fill("Username to invite", winger_name).press("Invite")
    winger.visit("/teams")
    winger.press("Accept", within="main")
    winger.sees("You are Player in this team")

    # Both open the team's conversation from the team page.
    for person in (captain, winger):
        person.visit(team_path).follow("Team conversation", within="main")
        person.sees("Write a message", "No messages yet")
    talk = captain.path
    if winger.path != talk:
        raise JourneyFailed(f"both should be in one conversation, not {talk} and {winger.path}")

    # The captain writes; the winger's open page shows it without a reload, and the other way round.
    first = f"Pitch moved to 19:00 {r.stamp}"
    captain.fill("Message", f"**{first}**").press("Send", in_place=True)
    arrives(winger, first, "the captain's message arrives")
    winger.fill("Message", "Bringing the bibs").press("Send", in_place=True)
    arrives(captain, "Bringing the bibs", "the winger's answer arrives")
    arrives(winger, "Bringing the bibs", "the winger's own message shows")
    if captain.driver.find_element("css selector", "textarea#body").get_attribute("value"):
        raise JourneyFailed("the form should be empty once the message is sent")

    # The conversation is listed with the team's name; a reload shows both messages in order.
    captain.visit("/messages").sees(team_name)
    captain.follow(team_name, within="main")
    text = captain.text
    if text.find(first) < 0 or text.find(first) > text.find("Bringing the bibs"):
        raise JourneyFailed("after a reload both messages should be there, oldest first")

    # A 15-year-old and an adult follow each other (she followed first, so he could find her), but
    # they share no team: he cannot start a conversation with her.
    born = (datetime.date.today() - datetime.timedelta(days=15 * 365 + 30)).isoformat()
    teen, teen_name = sign_up(r, "teen", born=born)
    adult, adult_name = sign_up(r, "adult")
    adult.visit(f"/u/{teen_name}")
    adult.sees("Go to the home page").does_not_see(f"Teen {r.stamp}")
    teen.visit(f"/u/{adult_name}").press("Follow")
    adult.visit(f"/u/{teen_name}").press("Ask to follow")
    teen.visit("/friends").press("Accept", within="main")
    adult.visit(f"/u/{teen_name}").follow("Message", within="main")
    adult.sees("only by people they follow back who are also their teammates or coaches")
    adult.does_not_see("Write a message")
