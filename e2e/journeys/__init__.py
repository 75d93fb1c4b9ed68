"""The journeys, in the order they run. Each is `run(r: Run)`: a sequence of clicks and typing by one
or more people, raising JourneyFailed at the first thing a person would see go wrong. They share one
server and run at both sizes, so each makes its own names with `r.unique(...)` and leaves the demo
people as it found them. A journey module may name the window `sizes` it runs at (recorder: phone only)."""

from . import account, challenge, charts, coach, invite, learn, maps, pickup, push, recorder, season, talk, team

JOURNEYS = {
    "team": team.run,
    "pickup": pickup.run,
    "challenge": challenge.run,
    "coach": coach.run,
    "learn": learn.run,
    "account": account.run,
    "recorder": recorder.run,
    "charts": charts.run,
    "maps": maps.run,
    "push": push.run,
    "season": season.run,
    "talk": talk.run,
    "invite": invite.run,
}
