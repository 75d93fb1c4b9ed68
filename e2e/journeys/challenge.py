"""Issue 23, photo challenges on a phone: a person sends a challenge with a geotagged photo to three
friends, one friend replies with a photo (with JavaScript off), the sender accepts it with 4 stars,
and the friend's score and badge change where they look for them.

Everyone is new, so the scoreboard and badges start empty at both window sizes: three friends sign up
and follow the sender, and the sender follows them back from the Friends page."""

from selenium.common.exceptions import TimeoutException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from browser import FIXTURES, NEW_PASSWORD, JourneyFailed
from words import found_in, words

def find_and_follow(b, name, username):
    """Finds a person through Find people and follows them from their profile."""
    b.visit("/people")
    b.fill("Name or username", username).press("Search")
    b.follow(name, within="main")
    if b.path != f"/u/{username}":
        raise JourneyFailed(f"{b.who} expected {name}'s profile, landed on {b.path}")
    b.press("Follow", within="main").sees(f"You now follow {name}.")


def badge_text(b, title):
    for item in b.driver.find_elements(By.CSS_SELECTOR, "li.badge-card"):
        if found_in(item.text, title):
            return item.text
    raise JourneyFailed(f"{b.who} found no badge {title!r} on {b.path}")


def done(r, b):
    """A person who has nothing more to do closes their browser (the machine is small)."""
    b.quit()
    r.browsers.remove(b)


def run(r):
    sender_user = r.unique("chsend")
    sender_name = f"Sasha Sender {r.size}"
    friends = [(f"Rhea Replier {r.size}", r.unique("chrhea")), (f"Olu Other {r.size}", r.unique("cholu")),
               (f"Tara Third {r.size}", r.unique("chtara"))]
    replier_name, replier_user = friends[0]
    caption = f"Find the mural and copy the pose {r.unique('')}"

    sender = r.newcomer(sender_name, sender_user)

    # Three friends sign up and follow the sender; the replier keeps their browser.
    replier = None
    for name, username in reversed(friends):
        friend = r.newcomer(name, username)
        find_and_follow(friend, sender_name, sender_user)
        if username == replier_user:
            replier = friend
        else:
            done(r, friend)

    # The sender follows them back from the Friends page, which makes them friends.
    sender.visit("/friends").sees("Follow back to become friends")
    for _ in friends:
        sender.press("Follow back")
    sender.sees("Your friends", *[name for name, _ in friends]).does_not_see("Follow back to become friends")

    # Before: the replier has no points and no challenge badge.
    replier.visit("/challenges/scoreboard").sees("Scoreboard", "No points yet")
    replier.visit(f"/u/{replier_user}").sees(replier_name, "0 challenge points")
    replier.visit("/badges")
    if not found_in(badge_text(replier, "First challenge completed"), "Not yet."):
        raise JourneyFailed(f"{replier_user} already has the challenge badge: {badge_text(replier, 'First challenge completed')!r}")

    # The sender sends the challenge from their phone, with the upload progress bar.
    sender.visit("/challenges").follow("New challenge", within="main")
    sender.sees("New challenge", "Send to", *[name for name, _ in friends])
    sender.choose_file("Photo", FIXTURES / "photos" / "geotagged_sony.jpg")
    try:  # the chosen photo shows before it is sent
        WebDriverWait(sender.driver, 10).until(
            lambda d: d.find_element(By.CSS_SELECTOR, f"img[alt='{words('Preview of your photo')}']").is_displayed())
    except TimeoutException:
        raise JourneyFailed("choosing the challenge photo showed no preview of it")
    sender.fill("Caption", caption)
    for name, _ in friends:
        sender.fill(name, True)
    sender.fill("Where the photo says", True)
    sender.watch_uploads().press("Send challenge")
    sender.sees("Challenge sent to 3 friends.", caption, "0 of 3 completed", "Where:", "Sent to")
    progress = sender.upload_progress()
    if not progress or not progress["shown"] or progress["value"] < progress.get("max", 100):
        raise JourneyFailed(f"the challenge photo was not sent with the upload progress bar (it saw {progress!r})")
    challenge_path = sender.path
    if not challenge_path.startswith("/challenges/"):
        raise JourneyFailed(f"after sending, the sender is on {challenge_path}, not the challenge")
    for name, _ in friends:
        sender.sees(f"{name} · Not yet replied")

    # The replier finds it waiting for them.
    replier.visit("/challenges").sees("Waiting for you", caption)
    replier.follow(caption, within="main").sees(caption, f"From {sender_name}", "Your reply")
    if replier.path != challenge_path:
        raise JourneyFailed(f"the replier's challenge link led to {replier.path}, not {challenge_path}")

    # The reply is posted with JavaScript off: the upload form works without it.
    plain = r.person(javascript=False)
    plain.sign_in(replier_user, NEW_PASSWORD)
    plain.visit(challenge_path)
    plain.choose_file("Your photo", FIXTURES / "photos" / "r_sony.jpg")
    plain.fill("Note", "Found it behind the station!")
    plain.press("Send reply")
    plain.sees("Reply sent.", "Waiting for judgement", f"Your reply is waiting for {sender_name}'s judgement.")
    done(r, plain)

    # The sender judges it: 4 stars.
    sender.visit("/challenges").sees("Replies to judge", caption)
    sender.follow(caption, within="main").sees(replier_name, "Found it behind the station!", "Waiting for judgement")
    sender.fill("4 ★", True).press("Accept")
    sender.sees("Reply accepted.", "Accepted", "★★★★☆", "1 of 3 completed", f"{replier_name} · Completed")

    # After: the replier's score and badge.
    replier.visit("/notifications").sees("was accepted with 4 stars")
    replier.visit("/challenges/scoreboard").sees("You and your friends, this week")
    rows = [row.text for row in replier.driver.find_elements(By.CSS_SELECTOR, "table.scoreboard tbody tr")]
    if not any(replier_name in row and found_in(row, "(you)") and row.split()[-1] == "4" for row in rows) \
            or not any(sender_name in row and row.split()[-1] == "1" for row in rows):
        raise JourneyFailed(f"the scoreboard should give {replier_name} 4 and {sender_name} 1; it shows {rows!r}")
    replier.visit(f"/u/{replier_user}").sees("4 challenge points")
    replier.visit("/badges").sees_in_time("First challenge completed", within="li.badge-card.earned", seconds=100)
    if not found_in(badge_text(replier, "First challenge completed"), "Earned"):
        raise JourneyFailed(f"the badge did not come: {badge_text(replier, 'First challenge completed')!r}")
    replier.sees("You have 1 of")
    # The challenge is finished for the replier.
    replier.visit(challenge_path).sees("You completed this challenge.", "★★★★☆")
