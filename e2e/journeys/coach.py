"""Coaching: a new athlete imports a FIT file from their watch (with the upload progress bar) and asks
a coach to coach them (with JavaScript off); the coach accepts on the coaching dashboard, opens the
athlete's workout, comments on it and plans a session for next week; the athlete sees the plan on
their home page and the comment on their workout."""

import datetime

from selenium.webdriver.common.by import By

from browser import FIXTURES, NEW_PASSWORD, JourneyFailed
from words import starts


def run(r):
    coach_user, athlete_user = r.unique("cocoach"), r.unique("coathlete")
    coach_name, athlete_name = f"Cora Coach {r.size}", f"Aki Athlete {r.size}"
    comment = f"Strong finish {r.unique('')}: keep the first half this easy next time."
    plan_note = f"Easy 10 k with strides {r.unique('')}"

    coach = r.newcomer(coach_name, coach_user)
    athlete = r.newcomer(athlete_name, athlete_user)

    # The athlete imports a run from their watch; the page sends it with a progress bar.
    athlete.visit("/").follow("Import files", within="main").sees("Import workouts")
    athlete.choose_file("Files", FIXTURES / "fit" / "activity-small-fenix2-run.fit")
    athlete.watch_uploads().press("Import")
    athlete.sees("1 file imported.", "activity-small-fenix2-run.fit")
    progress = athlete.upload_progress()
    if not progress or not progress["shown"] or progress["value"] < progress.get("max", 100):
        raise JourneyFailed(f"the FIT file was not sent with the upload progress bar (it saw {progress!r})")
    created = athlete.driver.find_elements(By.CSS_SELECTOR, ".import-results .import-created")
    if not created:
        raise JourneyFailed(f"the import did not create a workout: {athlete.text[:600]!r}")
    title = created[0].text.split("\n")[0]  # activity-small-fenix2-run.fit: Imported “Name”
    workout_name = title.split("“", 1)[1].rsplit("”", 1)[0]
    athlete.visit("/workouts").follow(workout_name, within="table.workouts").sees(workout_name, "from")
    workout_path = athlete.path

    # The athlete asks the coach, with JavaScript off: a plain form post.
    plain = r.person(javascript=False)
    plain.sign_in(athlete_user, NEW_PASSWORD)
    plain.visit("/settings/profile").follow("Coaches", within="main").sees("Your coaches", "Nobody coaches you yet.")
    plain.fill("Your coach's username", coach_user).press("Ask them")
    plain.sees(f"Asked {coach_name}.", "You asked", f"{coach_name} (@{coach_user}) has not answered yet.")
    plain.quit()
    r.browsers.remove(plain)

    # The coach accepts on their dashboard and opens the athlete's last workout.
    coach.from_menu("Coaching").sees("Coaching", "Athletes asking you to coach them", athlete_name)
    coach.press("Accept", within="main").sees(f"You now coach {athlete_name}.")
    coach.does_not_see("Athletes asking you to coach them")
    squad = coach.driver.find_element(By.CSS_SELECTOR, "table.squad").text
    if athlete_name not in squad or workout_name not in squad:
        raise JourneyFailed(f"the coach's squad table should list {athlete_name} with {workout_name!r}: {squad!r}")
    coach.follow(workout_name, within="table.squad").sees(workout_name, "You coach this athlete", "Comments")
    if coach.path != workout_path:
        raise JourneyFailed(f"the coach's link led to {coach.path}, not the athlete's workout {workout_path}")

    # A comment on the workout, for the athlete and her coaches alone (the one thread's checkbox).
    coach.fill("Add a comment", comment).fill("Only the athlete and their coaches see it", True).press("Comment")
    coach.sees("Comment added.", comment, "only coaches")

    # A session for next week, from the athlete's page.
    coach.follow("their training").sees(athlete_name, "Planned and done", "Plan a session")
    today = datetime.datetime.now(datetime.timezone.utc).date()  # new people live in UTC
    next_monday = today + datetime.timedelta(days=7 - today.weekday())
    coach.fill("Day", next_monday.isoformat()).fill("Sport", "Running").fill("Duration", "50").fill("Distance", "10")
    coach.fill("What to do", plan_note).press("Plan it")
    coach.sees(f"Planned running on {next_monday.isoformat()} for {athlete_name}.")
    week = [row.text for row in coach.driver.find_elements(By.CSS_SELECTOR, "table.week-grid tbody tr")
            if starts(row.text, "Next week")]
    if not week or plan_note not in week[0]:
        raise JourneyFailed(f"next week's row on the athlete's page should show the plan: {week!r}")

    # The athlete sees the plan on their home page and the comment on the workout.
    athlete.visit("/").sees("Planned by your coach", plan_note, f"(planned by {coach_name})")
    athlete.visit("/notifications").sees(f"{coach_name} commented on “{workout_name}”.", f"{coach_name} planned running for you")
    athlete.visit(workout_path).sees("Comments", coach_name, comment)
