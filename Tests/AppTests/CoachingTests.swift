@testable import App
import FieldhouseKit
import Fluent
import Foundation
import Testing
import Vapor

extension Browser {
    /// A workout typed in by hand, `daysAgo` days back at 10:00 UTC; returns its id.
    @discardableResult
    func typedWorkout(_ sport: String, daysAgo: Int, minutes: Int, heartRate: Int? = nil, distanceKm: Double? = nil) async throws -> String {
        let day = app.clock.today.adding(days: -daysAgo).description
        var fields = [("sport", sport), ("day", day), ("time", "10:00"), ("minutes", "\(minutes)")]
        if let heartRate { fields.append(("heart_rate", "\(heartRate)")) }
        if let distanceKm { fields.append(("distance", "\(distanceKm)")) }
        let made = try await post("/workouts/new", fields, csrfFrom: "/workouts/new")
        #expect(made.status == .seeOther, "workout not made: \(made.body.prefix(300))")
        return String(try #require(made.location).dropFirst("/workouts/".count))
    }
}

extension Browser {
    /// This athlete asks `coach` to coach them and the coach accepts: an active grant.
    func getsCoached(by coach: Browser) async throws {
        let name = try #require(coach.username)
        #expect(try await post("/settings/coaches", [("username", name)], csrfFrom: "/settings/coaches").status == .seeOther)
        let grant = try #require(try await CoachGrant.query(on: app.db).filter(\.$status == .pending).first())
        #expect(try await coach.post("/coach/requests/\(try grant.requireID().uuidString.lowercased())/accept", [], csrfFrom: "/coach").status == .seeOther)
    }
}

@Suite("Coaching")
struct CoachingTests {
    /// Consent both ways, and who sees what: coach with a grant, after revocation, a team coach
    /// without one, another coach, a stranger.
    @Test func onlyAnAcceptedCoachSeesPrivateTrainingAndOnlyUntilRevoked() async throws {
        try await withApp { app in
            let ana = app.browser(), cora = app.browser(), tom = app.browser(), olga = app.browser(), sam = app.browser(), ben = app.browser()
            // Ana is 15: her workouts are private by default.
            try await ana.signUp("ana", birthDate: "2011-03-01")
            for (browser, name) in [(cora, "cora"), (tom, "tom"), (olga, "olga"), (sam, "sam"), (ben, "ben")] { try await browser.signUp(name) }
            let workout = try await ana.typedWorkout("running", daysAgo: 1, minutes: 40, heartRate: 150, distanceKm: 7)
            let routes = [
                "/workouts/\(workout)", "/workouts/\(workout).gpx", "/workouts/\(workout).csv", "/coach/athletes/ana", "/coach/athletes/ana/zones",
                "/heart-rate?athlete=ana",
            ]
            func sees(_ browser: Browser) async throws -> [HTTPStatus] {
                var statuses: [HTTPStatus] = []
                for route in routes { statuses.append(try await browser.get(route).status) }
                return statuses
            }
            let hidden = [HTTPStatus](repeating: .notFound, count: routes.count)

            // Tom coaches Ana's team but has no grant; Olga coaches Ben.
            let slug = try await tom.createTeam("Riverside U16")
            let team = try #require(try await Team.query(on: app.db).filter(\.$slug == slug).first())
            let anaUser = try #require(try await User.query(on: app.db).filter(\.$username == "ana").first())
            try await Membership(teamID: team.requireID(), userID: anaUser.requireID(), role: .player).create(on: app.db)
            #expect(try await ben.post("/settings/coaches", [("username", "olga")], csrfFrom: "/settings/coaches").status == .seeOther)
            #expect(
                try await olga.post(
                    "/coach/requests/\(try #require(try await CoachGrant.query(on: app.db).first()?.id).uuidString.lowercased())/accept",
                    [], csrfFrom: "/coach"
                ).status == .seeOther)

            // Cora asks (Ana follows her: a stranger's request would not reach a 15-year-old); nothing is shared yet.
            #expect(try await ana.post("/u/cora/follow", [], csrfFrom: "/u/cora").status == .seeOther)
            let typo = try await cora.post("/coach/invite", [("username", "nobody_here")], csrfFrom: "/coach")
            #expect(typo.status == .unprocessableEntity && typo.contains("There is nobody called nobody_here here."))
            #expect(try await cora.post("/coach/invite", [("username", "@Ana")], csrfFrom: "/coach").status == .seeOther)
            #expect(try await sees(cora) == hidden)
            let settings = try await ana.get("/settings/coaches")
            #expect(settings.main.contains("Asking to coach you") && settings.main.contains("Cora"))
            #expect(try await rowCount("notifications", app.db) >= 1)

            // Ana accepts: Cora sees the private workout, its exports and the coaching pages.
            let grant = try #require(try await CoachGrant.query(on: app.db).filter(\.$athlete.$id == anaUser.requireID()).first())
            #expect(
                try await ana.post("/settings/coaches/\(try grant.requireID().uuidString.lowercased())/accept", [], csrfFrom: "/settings/coaches").status
                    == .seeOther)
            #expect(try await sees(cora) == [HTTPStatus](repeating: .ok, count: routes.count))
            let page = try await cora.get("/workouts/\(workout)")
            #expect(page.contains("You coach this athlete") && page.contains(#"id="comments""#))
            // The way back leads to where a coach comes from: the athlete's training, not Home.
            #expect(page.contains(#"<p><a href="/coach/athletes/ana">← Ana&#39;s training</a></p>"#))
            let fromWeek = try await cora.get("/workouts/\(workout)", headers: ["Referer": "http://127.0.0.1:\(app.port)/coach/week?week=2026-11-16"])
            #expect(fromWeek.contains(#"<p><a href="/coach/week?week=2026-11-16">← Weekly review</a></p>"#))
            #expect(try await cora.get("/coach").contains(#"<a href="/coach/athletes/ana">Ana</a>"#))

            // They talk under the workout; Markdown renders, HTML stays text.
            let comment = try await cora.post(
                "/workouts/\(workout)/comments", [("body", "Good **pace**. <script>alert(1)</script>"), ("audience", "coaches")],
                csrfFrom: "/workouts/\(workout)")
            #expect(comment.status == .seeOther)
            let withComment = try await ana.get("/workouts/\(workout)")
            #expect(withComment.contains("<strong>pace</strong>"))
            #expect(withComment.contains("&lt;script") && !withComment.contains("<script>alert(1)"))
            #expect(try await ana.get("/notifications").contains("Cora commented on"))
            let empty = try await ana.post("/workouts/\(workout)/comments", [("body", "   "), ("audience", "coaches")], csrfFrom: "/workouts/\(workout)")
            #expect(empty.status == .seeOther)
            let emptyPage = try await ana.get(try #require(empty.location))
            #expect(emptyPage.contains("Write something first."))
            let commentID = try #require(try await WorkoutComment.query(on: app.db).first()?.id).uuidString.lowercased()
            // Only the author edits or deletes it.
            #expect(try await ana.get("/workouts/\(workout)/comments/\(commentID)/edit").status == .notFound)
            // The author's edit page leads back to the comment in place.
            let editPage = try await cora.get("/workouts/\(workout)/comments/\(commentID)/edit")
            #expect(editPage.status == .ok)
            #expect(editPage.contains(#"href="/workouts/\#(workout)#comment-\#(commentID)""#))
            #expect(
                try await cora.post(
                    "/workouts/\(workout)/comments/\(commentID)/edit", [("body", "Great pace.")], csrfFrom: "/workouts/\(workout)/comments/\(commentID)/edit"
                ).status == .seeOther)
            #expect(try await ana.get("/workouts/\(workout)").contains("Great pace."))

            // Everyone else: nothing, comments included.
            for outsider in [tom, olga, sam] {
                #expect(try await sees(outsider) == hidden)
                #expect(try await outsider.post("/workouts/\(workout)/comments", [("body", "hi")], csrfFrom: "/").status == .notFound)
                #expect(!(try await outsider.get("/coach")).contains("/coach/athletes/ana"))
            }
            #expect(try await app.browser().get("/workouts/\(workout)").status == .notFound)

            // Revoked: gone at once.
            #expect(
                try await ana.post("/settings/coaches/\(try grant.requireID().uuidString.lowercased())/revoke", [], csrfFrom: "/settings/coaches").status
                    == .seeOther)
            #expect(try await sees(cora) == hidden)
            #expect(
                try await cora.post("/workouts/\(workout)/comments", [("body", "still there?"), ("audience", "coaches")], csrfFrom: "/").status == .notFound)
            #expect(!(try await cora.get("/coach")).contains("/coach/athletes/ana"))
            #expect(try await ana.get("/workouts/\(workout)").contains("Great pace."), "the athlete keeps the conversation")
        }
    }

    /// Issue 42: one thread under a workout, on its page. Followers' comments and the coaches' own
    /// ("only my coaches") are read in one list, each by whom it is for; old comment links land there.
    @Test func oneThreadUnderAWorkoutWithCommentsForTheCoachesAlone() async throws {
        try await withApp { app in
            let ana = app.browser(), cora = app.browser(), ben = app.browser()
            try await ana.signUp("ana", name: "Ana")
            try await cora.signUp("cora", name: "Cora Coach")
            try await ben.signUp("ben", name: "Ben")
            try await ana.getsCoached(by: cora)
            #expect(try await ben.post("/u/ana/follow", [], csrfFrom: "/u/ana").status == .seeOther)
            let made = try await ana.post(
                "/workouts/new",
                [
                    ("sport", "running"), ("day", app.clock.today.adding(days: -1).description), ("time", "07:00"), ("minutes", "40"),
                    ("visibility", "followers"),
                ], csrfFrom: "/workouts/new")
            let path = try #require(made.location)
            let id = String(path.split(separator: "/").last ?? "")

            // A follower writes for everyone who sees the workout; the form offers him no "only coaches".
            let form = try await ben.get(path)
            #expect(form.contains(#"action="\#(path)/comments""#) && !form.contains(#"name="audience""#))
            let bens = try await ben.post(path + "/comments", [("body", "Strong *finish*")], csrfFrom: path)
            #expect(bens.status == .seeOther && (bens.location ?? "").hasPrefix(path + "#comment-"))
            // A forged "only coaches" from him is refused and keeps nothing.
            let forged = try await ben.post(path + "/comments", [("body", "psst"), ("audience", "coaches")], csrfFrom: path)
            let afterForged = try await ben.get(path)
            #expect(forged.status == .seeOther && afterForged.contains("Only the athlete and their coaches can write comments"))
            #expect(try await WorkoutComment.query(on: app.db).count() == 0)

            app.clock.advance(by: 60)
            // The coach writes for the athlete alone, from the same form.
            #expect(try await cora.get(path).contains(#"name="audience" type="checkbox" value="coaches""#))
            #expect(try await cora.post(path + "/comments", [("body", "Easy tomorrow"), ("audience", "coaches")], csrfFrom: path).status == .seeOther)
            #expect(try await ana.get("/notifications").contains("Cora Coach commented on"))

            let own = try await ana.get(path)
            let strong = try #require(own.body.range(of: "Strong <em>finish</em>")), easy = try #require(own.body.range(of: "Easy tomorrow"))
            #expect(strong.lowerBound < easy.lowerBound, "one thread, oldest first")
            #expect(own.contains("only coaches"))
            let bensView = try await ben.get(path)
            #expect(bensView.contains("Strong <em>finish</em>") && !bensView.contains("Easy tomorrow"))
            #expect(try await cora.get(path).contains("Easy tomorrow"))

            // The feed's and old links lead to the thread on the page.
            let old = try await ben.get("/comments?on=workout:\(id)")
            #expect(old.status == .seeOther && old.location == path + "#comments")
            #expect(try await ben.get("/feed").contains(#"href="\#(path)#comments""#))
        }
    }

    @Test func aTeamCoachAsksEveryMemberAndEachDecides() async throws {
        try await withApp { app in
            let tom = app.browser()
            try await tom.signUp("tom")
            let slug = try await tom.createTeam("Harbour Hawks")
            let team = try #require(try await Team.query(on: app.db).filter(\.$slug == slug).first())
            var members: [Browser] = []
            for name in ["mia", "noa", "eli"] {
                let member = app.browser()
                try await member.signUp(name)
                let user = try #require(try await User.query(on: app.db).filter(\.$username == name).first())
                try await Membership(teamID: team.requireID(), userID: user.requireID(), role: .player).create(on: app.db)
                members.append(member)
            }
            let dashboard = try await tom.get("/coach")
            #expect(dashboard.main.contains("Ask the whole team") && dashboard.main.contains("Harbour Hawks"))
            let asked = try await tom.post("/coach/team-request", [("team", slug)], csrfFrom: "/coach")
            #expect(asked.status == .seeOther)
            #expect(try await tom.get("/coach").contains("Asked 3 members of Harbour Hawks."))
            #expect(try await CoachGrant.query(on: app.db).filter(\.$status == .pending).count() == 3)
            // Asking again adds nobody.
            _ = try await tom.post("/coach/team-request", [("team", slug)], csrfFrom: "/coach")
            #expect(try await CoachGrant.query(on: app.db).count() == 3)
            // Mia accepts, Noa declines, Eli does nothing.
            let mia = try #require(
                try await CoachGrant.query(on: app.db).join(User.self, on: \CoachGrant.$athlete.$id == \User.$id).filter(User.self, \.$username == "mia")
                    .first())
            let noa = try #require(
                try await CoachGrant.query(on: app.db).join(User.self, on: \CoachGrant.$athlete.$id == \User.$id).filter(User.self, \.$username == "noa")
                    .first())
            #expect(try await members[0].get("/settings/coaches").contains("coach of Harbour Hawks"))
            #expect(
                try await members[0].post("/settings/coaches/\(try mia.requireID().uuidString.lowercased())/accept", [], csrfFrom: "/settings/coaches").status
                    == .seeOther)
            #expect(
                try await members[1].post("/settings/coaches/\(try noa.requireID().uuidString.lowercased())/decline", [], csrfFrom: "/settings/coaches").status
                    == .seeOther)
            let rows = try await tom.get("/coach")
            #expect(rows.contains("/coach/athletes/mia") && !rows.contains("/coach/athletes/noa") && !rows.contains("/coach/athletes/eli"))
            // A team Tom does not run cannot be asked.
            #expect(try await tom.post("/coach/team-request", [("team", "no-such-team")], csrfFrom: "/coach").status == .unprocessableEntity)
            // Coaching that came through the team ends when Mia leaves it.
            #expect(try await members[0].post("/teams/\(slug)/leave", [], csrfFrom: "/teams/\(slug)").status == .seeOther)
            #expect(try await tom.get("/coach/athletes/mia").status == .notFound)
            #expect(!(try await members[0].get("/settings/coaches").contains("coach of Harbour Hawks")))
        }
    }

    /// Plans for yesterday: 55 of 60 minutes is green, 40 of 60 yellow, a missed one red; today's
    /// plan with nothing done yet has no colour.
    @Test func complianceColoursFollowThePlan() async throws {
        try await withApp { app in
            let ana = app.browser(), cora = app.browser()
            try await ana.signUp("ana")
            try await cora.signUp("cora")
            try await ana.getsCoached(by: cora)

            let yesterday = app.clock.today.adding(days: -1).description, today = app.clock.today.description
            for (sport, day, minutes) in [("running", yesterday, "60"), ("cycling", yesterday, "60"), ("swimming", yesterday, "30"), ("walking", today, "30")] {
                let planned = try await cora.post(
                    "/coach/athletes/ana/plans", [("day", day), ("sport", sport), ("duration", minutes), ("description", "Easy")],
                    csrfFrom: "/coach/athletes/ana")
                #expect(planned.status == .seeOther)
            }
            let bad = try await cora.post(
                "/coach/athletes/ana/plans", [("day", "someday"), ("sport", "running"), ("duration", "0")], csrfFrom: "/coach/athletes/ana")
            #expect(bad.status == .unprocessableEntity && bad.contains("Choose a day.") && bad.contains("from 1 to 1,440"))
            #expect(try await rowCount("planned_workouts", app.db) == 4)
            try await ana.typedWorkout("running", daysAgo: 1, minutes: 55)
            try await ana.typedWorkout("cycling", daysAgo: 1, minutes: 40)
            #expect(try await ana.get("/").contains("(planned by Cora)"))
            // Ana's calendar feed carries the plans as all-day events.
            let settings = try await ana.get("/settings/calendar")
            let feedURL = try #require(settings.firstMatch(#"id="feed" readonly value="[^"]*(/calendar/[^"]+\.ics)""#))
            let feed = try await app.browser().get(feedURL)
            #expect(feed.contains("DTSTART;VALUE=DATE:\(yesterday.replacingOccurrences(of: "-", with: ""))\r\nDURATION:P1D\r\nSUMMARY:Running 1:00:00"))
            #expect(feed.contains("Planned by Cora"))

            let week = try await cora.get("/coach/week?start=\(yesterday)")
            #expect(week.status == .ok)
            #expect(week.contains(#"compliance-green">Plan: Running 1:00:00: on plan"#))
            #expect(week.contains(#"compliance-yellow">Plan: Cycling 1:00:00: partly"#))
            #expect(week.contains(#"compliance-red">Plan: Swimming 30:00: off plan"#))
            // On a Monday, yesterday is in last week: today's plan is looked up in its own week.
            let thisWeek = try await cora.get("/coach/week?start=\(today)")
            #expect(
                thisWeek.contains("Plan: Walking 30:00") && !thisWeek.contains(#"compliance-red">Plan: Walking"#)
                    && !thisWeek.contains(#"compliance-green">Plan: Walking"#)
            )
            #expect(try await cora.get("/coach/week?start=tomorrow").status == .unprocessableEntity)
            let athletePage = try await cora.get("/coach/athletes/ana")
            #expect(athletePage.contains("Planned: Running 1:00:00") && athletePage.contains(#"compliance compliance-yellow">partly"#))
            #expect(athletePage.contains("Training time per week, last 12 weeks"))
        }
    }

    @Test func dashboardFlagsIdleAthletesAndSuddenLoad() async throws {
        try await withApp { app in
            let cora = app.browser(), ana = app.browser(), ben = app.browser()
            try await cora.signUp("cora")
            for (athlete, name) in [(ana, "ana"), (ben, "ben")] {
                try await athlete.signUp(name)
                #expect(try await cora.post("/coach/invite", [("username", name)], csrfFrom: "/coach").status == .seeOther)
            }
            let grants = try await CoachGrant.query(on: app.db).with(\.$athlete).all()
            #expect(grants.count == 2)
            for grant in grants {
                let browser = grant.athlete.username == "ana" ? ana : ben
                #expect(
                    try await browser.post("/settings/coaches/\(try grant.requireID().uuidString.lowercased())/accept", [], csrfFrom: "/settings/coaches")
                        .status == .seeOther)
            }
            // Ana: one easy session three weeks ago, then three hard ones in the last days.
            try await ana.typedWorkout("running", daysAgo: 20, minutes: 30, heartRate: 120)
            for daysAgo in 1...3 { try await ana.typedWorkout("running", daysAgo: daysAgo, minutes: 90, heartRate: 170) }
            // Ben: nothing for nine days.
            try await ben.typedWorkout("cycling", daysAgo: 9, minutes: 60, heartRate: 140)

            let dashboard = try await cora.get("/coach?sort=load")
            #expect(dashboard.status == .ok)
            #expect(dashboard.contains("9 days ⚑"), "a week or more without a workout is flagged")
            #expect(dashboard.contains(" high</span>"), "7-day load over 1.5× the usual week is flagged")
            let anaRow = try #require(dashboard.body.range(of: "/coach/athletes/ana")), benRow = try #require(dashboard.body.range(of: "/coach/athletes/ben"))
            #expect(anaRow.lowerBound < benRow.lowerBound, "sorted by load ratio, highest first")
            let byIdle = try await cora.get("/coach?sort=idle")
            #expect(
                try #require(byIdle.body.range(of: "/coach/athletes/ben")).lowerBound < (try #require(byIdle.body.range(of: "/coach/athletes/ana"))).lowerBound)
        }
    }

    /// A coach in Lisbon types "8,5": that is eight and a half kilometres, not 85. A distance that
    /// cannot be run in the time given, or a number that could be read two ways, is sent back.
    @Test func planNumbersTakeADecimalCommaAndImpossiblePlansAreRefused() async throws {
        try await withApp { app in
            let ana = app.browser(), cora = app.browser()
            try await ana.signUp("ana")
            try await cora.signUp("cora")
            try await ana.getsCoached(by: cora)
            let day = app.clock.today.adding(days: 1).description
            func plan(_ minutes: String, _ distance: String, sport: String = "running") async throws -> Browser.Page {
                try await cora.post(
                    "/coach/athletes/ana/plans", [("day", day), ("sport", sport), ("duration", minutes), ("distance", distance)],
                    csrfFrom: "/coach/athletes/ana")
            }

            // The form's fields are text fields: a browser's number field would turn "8,5" into 85 before sending.
            let form = try await cora.get("/coach/athletes/ana")
            #expect(form.contains(#"<input id="distance" name="distance" inputmode="decimal""#))

            #expect(try await plan("50", "8,5").status == .seeOther)
            #expect(try await plan("45,5", "8.25").status == .seeOther)
            let plans = try await PlannedWorkout.query(on: app.db).sort(\.$distance).all()
            #expect(plans.map(\.distance) == [8_250, 8_500])
            #expect(plans.map(\.duration) == [2_730, 3_000])

            let tooFast = try await plan("50", "85")
            #expect(tooFast.status == .unprocessableEntity)
            #expect(tooFast.contains("85.00 km in 50:00 is 102.0 km/h, faster than a whole running session can be"))
            #expect(tooFast.contains(#"value="85""#), "what was typed is kept")
            // The same pace is fine on a bike.
            #expect(try await plan("150", "85", sport: "cycling").status == .seeOther)

            for ambiguous in ["1,234.5", "1.234,5", "12,000,000"] {
                let refused = try await plan("", ambiguous)
                #expect(refused.status == .unprocessableEntity)
                #expect(refused.contains("one decimal point or comma"), "\(ambiguous)")
            }
            for nonsense in ["8.5km", "1e3", "nan", "inf", "-5", "0", "--1", "."] {
                #expect(try await plan("30", nonsense).status == .unprocessableEntity, "\(nonsense)")
            }
            #expect(try await rowCount("planned_workouts", app.db) == 3)
        }
    }

    /// Ana has two coaches: each plans for her, and each may remove only their own sessions.
    @Test func eachCoachRemovesOnlyTheirOwnPlans() async throws {
        try await withApp { app in
            let ana = app.browser(), cora = app.browser(), carl = app.browser()
            try await ana.signUp("ana")
            try await cora.signUp("cora")
            try await carl.signUp("carl")
            for coach in [cora, carl] { try await ana.getsCoached(by: coach) }
            let day = app.clock.today.adding(days: 1).description
            #expect(
                try await cora.post(
                    "/coach/athletes/ana/plans", [("day", day), ("sport", "running"), ("duration", "40")],
                    csrfFrom: "/coach/athletes/ana"
                ).status == .seeOther)
            let plan = try #require(try await PlannedWorkout.query(on: app.db).first())
            let remove = "/coach/athletes/ana/plans/\(try plan.requireID().uuidString.lowercased())/delete"
            let planner = try await cora.get("/coach/athletes/ana")
            #expect(planner.contains(remove) && planner.contains("Remove this planned session? The athlete will no longer see it."))
            #expect(!(try await carl.get("/coach/athletes/ana").contains(remove)), "no remove button on another coach's plan")
            let refused = try await carl.post(remove, [], csrfFrom: "/coach/athletes/ana")
            #expect(refused.status == .forbidden && refused.contains("Only the coach who planned this session can remove it."))
            #expect(try await rowCount("planned_workouts", app.db) == 1)
            #expect(try await cora.post(remove, [], csrfFrom: "/coach/athletes/ana").status == .seeOther)
            #expect(try await rowCount("planned_workouts", app.db) == 0)
        }
    }

    @Test func zonesAreCheckedAndUsedForTheAthlete() async throws {
        try await withApp { app in
            let ana = app.browser()
            try await ana.signUp("ana")
            let page = try await ana.get("/settings/zones")
            #expect(page.status == .ok && page.contains(#"<label for="zone3">Zone 3</label>"#))
            let backwards = try await ana.post(
                "/settings/zones",
                [
                    ("max_hr", "190"), ("resting_hr", "200"), ("basis", "max"),
                    ("zone1", "50"), ("zone2", "70"), ("zone3", "60"), ("zone4", "80"), ("zone5", "90"),
                ], csrfFrom: "/settings/zones")
            #expect(backwards.status == .unprocessableEntity)
            #expect(backwards.contains("Each zone must start above the one before (70 %)."))
            #expect(backwards.contains("between 30 and 110"))
            let noRest = try await ana.post(
                "/settings/zones",
                [
                    ("max_hr", "190"), ("resting_hr", ""), ("basis", "reserve"),
                    ("zone1", "50"), ("zone2", "60"), ("zone3", "70"), ("zone4", "80"), ("zone5", "90"),
                ], csrfFrom: "/settings/zones")
            #expect(noRest.status == .unprocessableEntity && noRest.contains("need the resting heart rate"))
            let saved = try await ana.post(
                "/settings/zones",
                [
                    ("max_hr", "200"), ("resting_hr", "50"), ("basis", "reserve"),
                    ("zone1", "50"), ("zone2", "60"), ("zone3", "70"), ("zone4", "80"), ("zone5", "90"),
                ], csrfFrom: "/settings/zones")
            #expect(saved.status == .seeOther)
            #expect(try await ana.get("/settings/zones").contains("Zones now start at 125, 140, 155, 170, 185 bpm"))
            // A new workout uses them: 150 bpm is zone 2 (140–154) by the reserve.
            let id = try await ana.typedWorkout("running", daysAgo: 1, minutes: 1, heartRate: 150)
            let workout = try #require(try await Workout.find(UUID(uuidString: id), on: app.db))
            #expect(workout.zones?.hasPrefix("125,140,155,170,185;") == true)
            #expect(workout.zoneMaximum == 200)
        }
    }
}
