import FieldhouseKit
import Fluent
import Vapor

/// A lively feed among the demo people: badges from everyone's history, two plans among Maya's
/// friends (one she is in, one waiting for her "I'm in"), kudos and comments on Maya's latest
/// workouts, gifts for her, and last week's nudges for the quiet ones (Kai among them).
enum DemoCommunity {
    /// Returns what it added; nothing once a demo plan exists.
    static func seed(app: Application) async throws -> [String] {
        let now = app.clock.now, today = app.clock.today, jobs = app.jobs
        return try await app.db.inTransaction { db -> [String] in
            let people = Dictionary(uniqueKeysWithValues: try await User.query(on: db).all().map { ($0.username, $0) })
            guard let maya = people["maya"], let jonas = people["jonas"], let sofia = people["sofia"], let amara = people["amara"],
                try await Plan.query(on: db).first() == nil
            else { return [] }

            for person in people.values { try await BadgeAwards.award(to: person.requireID(), now: now, on: db) }

            func plan(by poster: User, _ text: String, sport: Sport, inDays days: Int, at time: String, minutes: Int) async throws -> Plan {
                var form = PlanForm(zone: poster.timeZone, now: now)
                form.text = text
                form.sport = sport.rawValue
                form.day = LocalTime.parts(of: now.addingTimeInterval(Double(days) * 86_400), zone: poster.timeZone).day
                form.time = time
                form.duration_minutes = String(minutes)
                form.place_name = "By the harbour bath"
                guard let valid = form.validate(zone: poster.timeZone, teams: [], now: now).0 else {
                    throw Abort(.internalServerError, reason: "demo plan “\(text)” is invalid")
                }
                let game = try await Game.createPickup(valid.game, organiser: poster.requireID(), now: now, jobs: jobs, on: db)
                let plan = Plan()
                plan.$poster.id = try poster.requireID()
                plan.$game.id = try game.requireID()
                plan.audience = .friends
                plan.text = text
                try await plan.create(on: db)
                return plan
            }
            _ = try await plan(by: jonas, "Easy run along the harbour tomorrow at six, who's in?", sport: .running, inDays: 1, at: "18:00", minutes: 50)
            let ride = try await plan(
                by: sofia, "Saturday ride out to the lakes, 40 km at chatting pace", sport: .cycling, inDays: 5, at: "09:30", minutes: 150)
            let rideGame = try await ride.$game.get(on: db)
            _ = try await GameRoster.join(rideGame, user: maya, note: nil, now: now, on: db)

            // Maya's two latest workouts others may see: kudos, a comment, a gift.
            let shown = try await Workout.query(on: db).filter(\.$user.$id == maya.requireID()).filter(\.$visibility != .private)
                .filter(\.$endMS != nil).sort(\.$startMS, .descending).limit(2).all()
            for workout in shown {
                for giver in [jonas, sofia, amara] {
                    try await Kudos(workout: workout.requireID(), giver: giver.requireID()).create(on: db)
                    try await Kudos.tellOwner(of: workout, giver: giver, today: today, on: db)
                }
            }
            if let latest = shown.first {
                let subject = FeedSubject(
                    key: "workout:\(SiteURL.id(try latest.requireID()))", owner: maya, title: latest.name, url: SiteURL.workout(try latest.requireID()).path)
                let comment = FeedComment()
                comment.createdAt = now
                comment.subject = subject.key
                comment.$author.id = try jonas.requireID()
                comment.$owner.id = try maya.requireID()
                comment.body = "Strong finish! Same loop on Thursday?"
                try await comment.create(on: db)
                try await FeedComment.tellOwner(subject, author: jonas, today: today, on: db)
                try await Gift.give(.flame, note: "On fire this week", for: subject, from: jonas, now: now, today: today, on: db)
            }
            if let badge = try await Badge.query(on: db).filter(\.$owner.$id == maya.requireID()).filter(\.$shared == true).first(),
                let kind = BadgeKind(rawValue: badge.kind)
            {
                let subject = FeedSubject(
                    key: "badge:\(SiteURL.id(try badge.requireID()))", owner: maya, badge: kind,
                    url: SiteURL.person(username: maya.username).path)
                try await Gift.give(.medal, note: "Well earned", for: subject, from: sofia, now: now, today: today, on: db)
            }

            // Last week's nudges, as if it were Monday morning.
            for zone in Set(people.values.map(\.timeZone)) {
                let thisWeek = CalendarPeriod.week.start(zone: zone, now: now)
                try await WeeklyNudge.nudge(
                    zone: zone, from: thisWeek.addingTimeInterval(-7 * 86_400), to: thisWeek, accountsBefore: .distantFuture, now: now, on: db)
            }
            let badges = try await Badge.query(on: db).count()
            return ["Added \(badges) demo badges, two plans among Maya's friends, kudos, a comment, gifts and last week's nudges."]
        }
    }
}
