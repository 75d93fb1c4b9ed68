@testable import App
import Foundation
import SnapshotTesting
import Testing
import Vapor

/// The states of the pages that have states (empty, one, many, a refused form, a person under 16,
/// Portuguese), each rendered from a hand-built context by the page's own template, with no
/// database (`PageRenderer`), and compared with `__Snapshots__/PageStateSnapshotTests/`. A template
/// change shows as a diff of each state it touches. When a change is meant, run
/// `FIELDHOUSE_RECORD_SNAPSHOTS=1 swift test --filter PageStateSnapshotTests`, read the new files
/// and commit them; without it a missing or changed file fails and nothing is written.
@Suite(.snapshots(record: .fieldhouse))
struct PageStateSnapshotTests {
    typealias R = PageRenderer

    /// The catalogue is installed with the renderer's app; contexts built before it would say in
    /// English what `t(...)` writes in Swift.
    init() async throws { _ = try await R.app() }

    /// Renders and compares, naming the file after the test and `state`.
    func snapshot(
        _ template: String, _ context: some Encodable, _ state: String, language: Language = .en, path: String = "/",
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, testName: String = #function, line: UInt = #line, column: UInt = #column
    ) async throws {
        let html = try await R.render(template, context, language: language, path: path)
        #expect(html.contains("<main"), "\(template) rendered no page: \(html.prefix(200))")
        assertSnapshot(of: html, as: .html, named: state, fileID: fileID, file: filePath, testName: testName, line: line, column: column)
    }

    // MARK: Sign-up and sign-in

    func signup(_ form: AccountController.SignupForm, errors: FieldErrors = [:], language: Language = .en) -> AccountController.SignupPage {
        R.inLanguage(language) {
            AccountController.SignupPage(
                layout: R.layout(t("Create your account"), viewer: nil, language: language, here: "/signup", hasForms: true), form: form, errors: errors,
                today: "2026-11-21", timeZones: ["Europe/Lisbon", "UTC"])
        }
    }

    @Test func signUpEmpty() async throws {
        try await snapshot("accounts/signup", signup(.init(time_zone: "UTC")), "empty")
    }

    @Test func signUpWithEveryFieldRefused() async throws {
        let form = AccountController.SignupForm(
            username: "a b", email: "not-an-address", password: nil, display_name: "", birth_date: "2030-01-01", time_zone: "Europe/Lisbon")
        let errors: FieldErrors = [
            "username": "Use 3 to 30 letters, digits or underscores.", "email": "That does not look like an e-mail address.",
            "password": "Use at least 10 characters.", "display_name": "Tell us your name.", "birth_date": "That date is in the future.",
        ]
        try await snapshot("accounts/signup", signup(form, errors: errors), "errors")
    }

    @Test func signUpInPortuguese() async throws {
        try await snapshot("accounts/signup", signup(.init(time_zone: "Europe/Lisbon"), language: .ptPT), "pt", language: .ptPT)
    }

    func login(_ login: String = "", error: String? = nil, language: Language = .en) -> AccountController.LoginPage {
        R.inLanguage(language) {
            AccountController.LoginPage(
                layout: R.layout(t("Sign in"), viewer: nil, language: language, here: "/login", hasForms: true), login: login, next: "/", error: error)
        }
    }

    @Test func signInEmpty() async throws {
        try await snapshot("accounts/login", login(), "empty")
    }

    @Test func signInRefused() async throws {
        try await snapshot("accounts/login", login("ana", error: "That username or password is wrong."), "error")
    }

    @Test func signInInPortuguese() async throws {
        try await snapshot("accounts/login", login(language: .ptPT), "pt", language: .ptPT)
    }

    @Test func theFrontPageForAVisitor() async throws {
        try await snapshot("home/landing", HomeController.LandingPage(layout: R.layout("Fieldhouse: amateur sport, together", viewer: nil)), "visitor")
    }

    @Test func theFrontPageInPortuguese() async throws {
        let page = R.inLanguage(.ptPT) {
            HomeController.LandingPage(layout: R.layout(t("Fieldhouse: amateur sport, together"), viewer: nil, language: .ptPT))
        }
        try await snapshot("home/landing", page, "pt", language: .ptPT)
    }

    // MARK: Notifications

    func notifications(_ items: [NotificationController.Item], page: Int = 1, more: Bool = false, language: Language = .en) async throws
        -> NotificationController.Page
    {
        var pager = Pager(req: try await R.request(page > 1 ? "/notifications?page=\(page)" : "/notifications"), perPage: 30)
        _ = pager.finish(Array(repeating: 0, count: items.count + (more ? 1 : 0)), at: .notifications, query: [])
        return R.inLanguage(language) {
            NotificationController.Page(
                layout: R.layout(t("Notifications"), language: language, here: "/notifications", counts: ["unread": items.filter(\.unread).count]),
                items: items, pager: pager, hasUnread: items.contains { $0.unread })
        }
    }

    static func note(_ number: Int, unread: Bool) -> NotificationController.Item {
        .init(text: "Bea Boss invited you to join Team \(number)", link: "/teams/team-\(number)", when: "Sat 21 Nov 2026, 10:\(10 + number)", unread: unread)
    }

    @Test func notificationsEmpty() async throws {
        try await snapshot("notifications/notifications", try await notifications([]), "empty")
    }

    @Test func notificationsOneUnread() async throws {
        try await snapshot("notifications/notifications", try await notifications([Self.note(1, unread: true)]), "one")
    }

    @Test func notificationsManyAcrossPages() async throws {
        let items = (1...30).map { Self.note($0, unread: $0 <= 3) }
        try await snapshot("notifications/notifications", try await notifications(items, page: 2, more: true), "many")
    }

    @Test func notificationsInPortuguese() async throws {
        let items = [
            NotificationController.Item(text: "A Bea convidou-te para a equipa Leões", link: "/teams/leoes", when: "sáb 21 nov 2026, 10:11", unread: false)
        ]
        try await snapshot("notifications/notifications", try await notifications(items, language: .ptPT), "pt", language: .ptPT)
    }

    // MARK: The feed

    static func feedItem(_ number: Int, kind: String = "workout", mine: Bool = false) -> FeedItem {
        var item = FeedItem(
            at: 1_795_246_200_000 - Int64(number) * 3_600_000, key: "\(kind):\(number)", kind: kind, actorName: mine ? "Ana Lima" : "Bruno Costa",
            actorURL: mine ? "/u/ana" : "/u/bruno", text: kind == "workout" ? "ran 8.20 km" : "joined",
            title: kind == "workout" ? "Morning run \(number)" : "Riverside Futsal",
            url: kind == "workout" ? "/workouts/00000000-0000-0000-0000-00000000000\(number % 10)" : "/teams/riverside-futsal",
            detail: kind == "workout" ? "42:10 · 5:09 /km" : nil)
        item.when = "Sat 21 Nov 2026, 0\(number % 10):30"
        item.datetime = "2026-11-21T0\(number % 10):30:00Z"
        item.isViewers = mine
        if kind == "workout" {
            item.kudos = number % 3
            item.kudosAction = "/feed/kudos"
            item.canGiveKudos = !mine
            item.gaveKudos = number == 2
            item.comments = number % 2
            item.commentsURL = item.url + "#comments"
            item.giftURL = mine ? nil : "/gifts/new?to=bruno"
        }
        return item
    }

    func feed(_ items: [FeedItem], older: String? = nil, later: Bool = false, language: Language = .en) -> FeedController.Page {
        R.inLanguage(language) {
            FeedController.Page(
                layout: R.layout(t("Feed"), section: .home, language: language, here: "/feed"), feed: items, older: older, isLater: later,
                here: later ? "/feed?before=x" : "/feed", newest: "/feed", findPeople: "/people", findTeams: "/find", newPlan: "/plans/new",
                leaderboard: "/leaderboard")
        }
    }

    @Test func feedEmpty() async throws {
        try await snapshot("community/feed", feed([]), "empty")
    }

    @Test func feedWithOneWorkout() async throws {
        try await snapshot("community/feed", feed([Self.feedItem(1)]), "one")
    }

    @Test func feedWithManyEntriesAndOlderOnes() async throws {
        let items = (1...9).map { Self.feedItem($0, kind: $0 == 4 ? "member" : "workout", mine: $0 == 5) }
        try await snapshot("community/feed", feed(items, older: "/feed?before=workout:9"), "many")
    }

    @Test func feedPastTheOldestEntry() async throws {
        try await snapshot("community/feed", feed([], later: true), "later-empty")
    }

    @Test func feedInPortuguese() async throws {
        var item = Self.feedItem(1)
        item = FeedItem(
            at: item.at, key: item.key, kind: item.kind, actorName: item.actorName, actorURL: item.actorURL, text: "correu 8,20 km", title: "Corrida da manhã",
            url: item.url, detail: "42:10 · 5:09 /km")
        item.kudosAction = "/feed/kudos"
        item.canGiveKudos = true
        item.kudos = 1
        item.comments = 1
        item.commentsURL = "/workouts/00000000-0000-0000-0000-000000000001#comments"
        item.datetime = "2026-11-21T01:30:00Z"
        item.when = "sáb 21 nov 2026, 01:30"
        try await snapshot("community/feed", feed([item], language: .ptPT), "pt", language: .ptPT)
    }

    // MARK: The workout history

    static func workoutRow(_ number: Int) -> WorkoutController.Row {
        .init(
            id: "00000000-0000-0000-0000-00000000000\(number % 10)", when: "Sat 21 Nov 2026, 07:\(10 + number)", sport: "Running",
            name: "Morning run \(number)", duration: "42:10", distance: "8.20 km", heartRate: number.isMultiple(of: 2) ? "148 bpm" : "–",
            calories: "610 kcal")
    }

    func history(_ rows: [[WorkoutController.Row]], error: String? = nil, from: String = "", to: String = "", language: Language = .en) async throws
        -> WorkoutController.HistoryPage
    {
        var pager = Pager(req: try await R.request("/workouts"), perPage: 30)
        let all = rows.flatMap { $0 }
        _ = pager.finish(Array(repeating: 0, count: all.count > 30 ? 31 : all.count), at: .workouts, query: [])
        return R.inLanguage(language) {
            let groups = rows.enumerated().map { index, rows in
                WorkoutController.Group(
                    label: "Week of 1\(6 - index) Nov 2026", count: rows.count, duration: "\(rows.count * 42) min", distance: "\(rows.count * 8) km",
                    calories: "\(rows.count * 610) kcal", rows: rows)
            }
            return WorkoutController.HistoryPage(
                layout: R.layout(t("Workouts"), section: .workouts, language: language, here: "/workouts"),
                sports: WorkoutSport.allCases.map { SelectOption(value: $0.rawValue, label: $0.label, selected: false) },
                groupings: [("day", t("By day")), ("week", t("By week")), ("month", t("By month"))].map {
                    SelectOption(value: $0.0, label: $0.1, selected: $0.0 == "week")
                },
                from: from, to: to, groups: groups,
                total: WorkoutController.Group(
                    label: t("All"), count: all.count, duration: all.isEmpty ? "–" : "\(all.count * 42) min",
                    distance: all.isEmpty ? "–" : "\(all.count * 8) km",
                    calories: all.isEmpty ? "–" : "\(all.count * 610) kcal", rows: []),
                pager: pager, error: error)
        }
    }

    @Test func workoutHistoryEmpty() async throws {
        try await snapshot("workouts/index", try await history([]), "empty")
    }

    @Test func workoutHistoryWithOneWorkout() async throws {
        try await snapshot("workouts/index", try await history([[Self.workoutRow(1)]]), "one")
    }

    @Test func workoutHistoryWithManyWeeks() async throws {
        let weeks = (0..<4).map { week in (1...(week + 2)).map { Self.workoutRow(week * 5 + $0) } }
        try await snapshot("workouts/index", try await history(weeks), "many")
    }

    @Test func workoutHistoryWithARangeBackwards() async throws {
        let page = try await history([], error: "The end date must not be before the start date.", from: "2026-11-20", to: "2026-11-01")
        try await snapshot("workouts/index", page, "error")
    }

    @Test func workoutHistoryInPortuguese() async throws {
        let rows = (1...2).map { number in
            WorkoutController.Row(
                id: "00000000-0000-0000-0000-00000000000\(number)", when: "sáb 21 nov 2026, 07:1\(number)",
                sport: R.inLanguage(.ptPT) { WorkoutSport.running.label }, name: "Corrida \(number)", duration: "42:10", distance: "8,20 km",
                heartRate: "148 bpm", calories: "610 kcal")
        }
        try await snapshot("workouts/index", try await history([rows], language: .ptPT), "pt", language: .ptPT)
    }

    // MARK: One workout

    static let anaID = UUID(uuidString: "00000000-0000-0000-0000-0000000000a1")!
    static let tomasID = UUID(uuidString: "00000000-0000-0000-0000-0000000000b2")!

    static func person(_ id: UUID, _ username: String, _ name: String, born: String, language: Language = .en) -> User {
        let user = User(username: username, email: username + "@example.com", passwordHash: "", displayName: name, birthDate: born)
        user.id = id
        user.timeZone = "Europe/Lisbon"
        user.languageCode = language.rawValue
        return user
    }

    static func run(owner: UUID, visibility: Workout.Visibility = .public) -> Workout {
        let start: Int64 = 1_795_246_200_000
        let workout = Workout(user: owner, sport: .running, name: "Riverside loop", start: start, end: start + 2_530_000, source: "gpx", visibility: visibility)
        workout.id = UUID(uuidString: "00000000-0000-0000-0000-00000000c0de")!
        workout.duration = 2_530
        workout.moving = 2_490
        workout.distance = 8_200
        workout.avgSpeed = 3.24
        workout.minSpeed = 2.1
        workout.maxSpeed = 4.4
        workout.elevationGain = 64
        workout.avgHeartRate = 148
        workout.minHeartRate = 96
        workout.maxHeartRate = 177
        workout.calories = 610
        return workout
    }

    func workoutPage(owner: User, viewer: User?, under16: Bool = false, language: Language = .en) throws -> WorkoutPage {
        try R.inLanguage(language) {
            let workout = Self.run(owner: owner.id!)
            let layoutViewer = viewer.map {
                Layout.Viewer(username: $0.username, displayName: $0.displayName, initials: $0.initials, avatarURL: nil, isAdmin: false)
            }
            return try WorkoutPage(
                layout: R.layout(workout.name, section: .workouts, viewer: layoutViewer, language: language, here: "/workouts/x", hasForms: viewer != nil),
                // A workout entered without a track: no charts or map to draw.
                workout: workout,
                drawings: WorkoutDrawings(workout: workout, series: WorkoutSeries(), format: Format(viewer ?? owner), hiddenZones: [], tiles: nil),
                viewer: viewer, owner: owner, ownerUnder16: under16,
                back: viewer?.id == owner.id ? BackLink(.workouts, t("Workouts")) : BackLink(.home, t("Home")), canDownload: viewer?.id == owner.id)
        }
    }

    @Test func aWorkoutForItsOwner() async throws {
        let ana = Self.person(Self.anaID, "ana", "Ana Lima", born: "1990-04-02")
        try await snapshot("workouts/show", try workoutPage(owner: ana, viewer: ana), "owner")
    }

    /// Marked public, but someone under 16 is seen by followers only: the page says so to its owner.
    @Test func aPublicWorkoutOfSomeoneUnder16() async throws {
        let tomas = Self.person(Self.tomasID, "tomas", "Tomás Reis", born: "2013-06-01")
        try await snapshot("workouts/show", try workoutPage(owner: tomas, viewer: tomas, under16: true), "under-16")
    }

    @Test func aWorkoutSeenSignedOut() async throws {
        let ana = Self.person(Self.anaID, "ana", "Ana Lima", born: "1990-04-02")
        try await snapshot("workouts/show", try workoutPage(owner: ana, viewer: nil), "visitor")
    }

    @Test func aWorkoutInPortuguese() async throws {
        let ana = Self.person(Self.anaID, "ana", "Ana Lima", born: "1990-04-02", language: .ptPT)
        try await snapshot("workouts/show", try workoutPage(owner: ana, viewer: ana, language: .ptPT), "pt", language: .ptPT)
    }

    // MARK: A team

    static func member(_ username: String, _ name: String, role: String, you: Bool = false, editable: Bool = false) -> TeamPage.Member {
        .init(
            username: username, displayName: name, role: role, roleValue: role.lowercased(), profileURL: "/u/\(username)", isYou: you, canEdit: editable)
    }

    func teamPage(
        viewer: Layout.Viewer?, role: String?, roster: [TeamPage.Member]?, requests: [TeamPage.Pending] = [], typed: TeamPage.Typed = .init(),
        errors: FieldErrors = [:], privacy: Team.Privacy = .protected, language: Language = .en
    ) -> TeamPage {
        R.inLanguage(language) {
            let team = Team()
            team.slug = "riverside-futsal"
            team.name = "Riverside Futsal"
            team.sport = "futsal"
            team.privacy = privacy
            team.ageGroup = "any"
            team.gender = "any"
            team.skill = "any"
            team.lookingForPlayers = true
            let manages = role == "Owner" || role == "Manager"
            return TeamPage(
                layout: R.layout(team.name, section: .teams, viewer: viewer, language: language, here: "/teams/riverside-futsal", hasForms: true),
                back: BackLink(.teams, t("Teams")), team: TeamCard(team, role: nil), description: "Friday evenings at the river hall. All levels welcome.",
                place: "Riverside Hall", mapURL: nil, isMember: role != nil,
                conversationURL: role != nil ? "/teams/riverside-futsal/messages" : nil, yourRole: role, canManage: manages,
                isOwner: role == "Owner",
                canJoinNow: viewer != nil && role == nil && privacy == .public, canRequest: viewer != nil && role == nil && privacy == .protected,
                hasRequested: false, isInvited: false, inviteID: nil, signInURL: viewer == nil ? "/login?next=/teams/riverside-futsal" : nil,
                memberCount: roster?.count ?? 7, roster: roster, requests: requests, personInvites: [], linkInvites: [], sendsMail: true, typed: typed,
                errors: errors,
                leagues: [], games: [], feedURL: role == nil ? nil : "/teams/riverside-futsal/feed",
                roles: ["member", "coach", "manager"].map { SelectOption(value: $0, label: $0.capitalized) }, liveNow: [])
        }
    }

    @Test func aProtectedTeamForAVisitor() async throws {
        try await snapshot("teams/show", teamPage(viewer: nil, role: nil, roster: nil), "visitor")
    }

    @Test func aTeamForAPersonWhoMayAskToJoin() async throws {
        try await snapshot("teams/show", teamPage(viewer: R.Viewers.ana, role: nil, roster: nil), "may-request")
    }

    @Test func aTeamWithManyMembers() async throws {
        let roster =
            [Self.member("cora", "Cora Coach", role: "Owner")] + (1...12).map { Self.member("player\($0)", "Player \($0)", role: "Member") }
            + [Self.member("ana", "Ana Lima", role: "Member", you: true)]
        try await snapshot("teams/show", teamPage(viewer: R.Viewers.ana, role: "Member", roster: roster), "many")
    }

    @Test func aTeamForItsManagerWithARefusedInvitation() async throws {
        let roster = [Self.member("ana", "Ana Lima", role: "Owner", you: true), Self.member("bruno", "Bruno Costa", role: "Member", editable: true)]
        let requests = [
            TeamPage.Pending(
                id: "00000000-0000-0000-0000-000000000077", username: "tomas", displayName: "Tomás Reis", message: "Can I play on Fridays?", ageGroup: "15–17")
        ]
        let page = teamPage(
            viewer: R.Viewers.ana, role: "Owner", roster: roster, requests: requests, typed: .init(username: "nobody_here", message: ""),
            errors: ["username": "No one is called nobody_here."])
        try await snapshot("teams/show", page, "manager-error")
    }

    @Test func aTeamInPortuguese() async throws {
        let roster = [Self.member("ana", "Ana Lima", role: "Dona", you: true), Self.member("bruno", "Bruno Costa", role: "Membro")]
        try await snapshot("teams/show", teamPage(viewer: R.Viewers.ana, role: "Dona", roster: roster, language: .ptPT), "pt", language: .ptPT)
    }

    // MARK: Profile settings

    func profileSettings(_ form: ProfileForm, errors: FieldErrors = [:], age: Int? = nil, viewer: Layout.Viewer = R.Viewers.ana, language: Language = .en)
        -> SettingsController.ProfileSettingsPage
    {
        R.inLanguage(language) {
            let tabs = Features.all.flatMap { $0.settingsTabs }.sorted { $0.order < $1.order }
                .map { Layout.Tab(label: $0.label, url: $0.url.path, current: $0.url.path == "/settings/profile") }
            return SettingsController.ProfileSettingsPage(
                layout: R.layout(t("Your profile"), section: .settings, viewer: viewer, language: language, here: "/settings/profile", settingsTabs: tabs),
                form: form, errors: errors,
                genders: User.Gender.allCases.map { SelectOption(value: $0.rawValue, label: $0.label) },
                units: User.Units.allCases.map { SelectOption(value: $0.rawValue, label: $0.label) },
                clocks: ClockStyle.allCases.map { SelectOption(value: $0.rawValue, label: $0.label) },
                languages: [SelectOption(value: "", label: t("As my browser asks"))]
                    + Language.allCases.map { SelectOption(value: $0.rawValue, label: $0.name) },
                skills: Skill.allCases.map { SelectOption(value: $0.rawValue, label: $0.label) },
                sports: Sport.allCases.map { SettingsController.SportRow(key: $0.rawValue, label: $0.label, selected: form.sports?[$0.rawValue] ?? "") },
                timeZones: ["Europe/Lisbon", "UTC"], today: "2026-11-21", age: age.map { tn("{count} years old", "{count} years old", $0) })
        }
    }

    static func profileForm(name: String, born: String) -> ProfileForm {
        let user = person(anaID, "ana", name, born: born)
        user.bio = "Runner and futsal goalkeeper."
        user.homeName = "Lisbon"
        user.$sports.value = []
        return ProfileForm(user: user)
    }

    @Test func profileSettingsFilledIn() async throws {
        try await snapshot("accounts/settings_profile", profileSettings(Self.profileForm(name: "Ana Lima", born: "1990-04-02"), age: 36), "adult")
    }

    @Test func profileSettingsOfSomeoneUnder16() async throws {
        let page = profileSettings(Self.profileForm(name: "Tomás Reis", born: "2013-06-01"), age: 13, viewer: R.Viewers.teen)
        try await snapshot("accounts/settings_profile", page, "under-16")
    }

    @Test func profileSettingsRefused() async throws {
        var form = Self.profileForm(name: "", born: "2030-01-01")
        form.height_cm = "9000"
        let errors: FieldErrors = [
            "display_name": "Tell us your name.", "birth_date": "That date is in the future.", "height_cm": "Enter a height between 50 and 272 cm.",
        ]
        try await snapshot("accounts/settings_profile", profileSettings(form, errors: errors), "errors")
    }

    @Test func profileSettingsInPortuguese() async throws {
        let page = profileSettings(Self.profileForm(name: "Ana Lima", born: "1990-04-02"), age: 36, language: .ptPT)
        try await snapshot("accounts/settings_profile", page, "pt", language: .ptPT)
    }

    // MARK: Places

    static func place(_ number: Int, reward: Bool = false) -> PlaceController.Item {
        .init(
            name: "Harbour Café \(number)", url: "/places/00000000-0000-0000-0000-00000000010\(number % 10)", kind: "Café", distance: "\(number * 300) m",
            sports: "Cycling, Running", reward: reward ? "10 % off a coffee for riders" : nil)
    }

    func places(
        _ items: [PlaceController.Item], form: [String: String] = [:], errors: FieldErrors = [:], centre: String? = nil, more: Bool = false,
        language: Language = .en
    ) async throws -> PlaceController.IndexPage {
        var pager = Pager(req: try await R.request("/places"), perPage: 30)
        _ = pager.finish(Array(repeating: 0, count: items.count + (more ? 1 : 0)), at: .places, query: [])
        return R.inLanguage(language) {
            var form = form
            form["radius_km"] = form["radius_km"] ?? "10"
            return PlaceController.IndexPage(
                layout: R.layout(t("Places"), section: .places, language: language, here: "/places"), places: items, pager: pager, centreLabel: centre,
                form: form, errors: errors, kinds: Place.Kind.allCases.map { SelectOption(value: $0.rawValue, label: $0.label) }, choices: Choices(),
                radii: PlaceController.radii, canAdd: true, action: "/places", newPlace: "/places/new")
        }
    }

    @Test func placesWithNothingFound() async throws {
        try await snapshot("places/index", try await places([], form: ["lat": "55.6761", "lon": "12.5683"], centre: "Near the point you gave"), "empty")
    }

    @Test func placesNearAPoint() async throws {
        let items = (1...30).map { Self.place($0, reward: $0 % 4 == 0) }
        let page = try await places(items, form: ["lat": "55.6761", "lon": "12.5683", "sport": "cycling"], centre: "Near the point you gave", more: true)
        try await snapshot("places/index", page, "many")
    }

    @Test func placesWithAPointOffTheMap() async throws {
        let page = try await places([], form: ["lat": "123", "lon": "12.5683"], errors: ["lat": "Latitude must be between -90 and 90."])
        try await snapshot("places/index", page, "error")
    }

    @Test func placesInPortuguese() async throws {
        let item = PlaceController.Item(
            name: "Café do Porto", url: "/places/00000000-0000-0000-0000-000000000101", kind: "Café", distance: "300 m", sports: "Ciclismo", reward: nil)
        try await snapshot("places/index", try await places([item], centre: "Perto da tua zona", language: .ptPT), "pt", language: .ptPT)
    }

    // MARK: Home, signed in

    func dashboard(
        name: String, age: Int, viewer: Layout.Viewer, feed: [FeedItem] = [], people: [User] = [], games: [GameCard] = [],
        goals: [GoalProgress] = [], recent: [HomeController.RecentWorkout] = [], planned: [String] = [], language: Language = .en
    ) -> HomeController.DashboardPage {
        R.inLanguage(language) {
            let today = CalendarDate(iso: "2026-11-21")!
            let cards = people.map { PersonCard($0, relation: PersonAccess.Relation(today: today)) }
            return HomeController.DashboardPage(
                layout: R.layout(t("Home"), section: .home, viewer: viewer, language: language), firstName: name, feed: feed, feedURL: "/feed", here: "/",
                profileIncomplete: recent.isEmpty, followRequests: people.isEmpty ? 0 : 2, friends: people.count, followers: people.count,
                following: people.count, newFollowers: Array(cards.prefix(2)), suggestions: Array(cards.dropFirst(2)), games: games,
                activity: HomeController.advice(age: age, today: [], week: []), goals: goals, recent: recent, planned: planned)
        }
    }

    @Test func homeForSomeoneNew() async throws {
        try await snapshot("home/dashboard", dashboard(name: "Ana", age: 36, viewer: R.Viewers.ana), "empty")
    }

    @Test func homeWithEverythingOnIt() async throws {
        let people = ["bruno": "Bruno Costa", "carla": "Carla Dias", "duarte": "Duarte Sá", "eva": "Eva Matos"].sorted { $0.key < $1.key }.enumerated().map {
            Self.person(UUID(uuidString: "00000000-0000-0000-0000-00000000020\($0.offset)")!, $0.element.key, $0.element.value, born: "1988-01-01")
        }
        let game = GameCard(
            url: "/games/00000000-0000-0000-0000-000000000301", title: "Friday futsal", sport: "Futsal", team: "Riverside Futsal", when: "Fri 27 Nov, 19:00",
            place: "Riverside Hall", status: "Going", statusValue: "going", cancelled: false)
        let goal = GoalProgress(
            id: "00000000-0000-0000-0000-000000000401", name: "Weekly distance", title: "Weekly distance: 20 km", progress: "12.4 km of 20 km this week (62 %)",
            percent: 62, enabled: true)
        let recent = [
            HomeController.RecentWorkout(
                id: "00000000-0000-0000-0000-00000000c0de", name: "Riverside loop", when: "Sat 21 Nov 2026, 07:30", summary: "42:10 · 8.20 km")
        ]
        let page = dashboard(
            name: "Ana", age: 36, viewer: R.Viewers.ana, feed: (1...5).map { Self.feedItem($0) }, people: people, games: [game], goals: [goal], recent: recent,
            planned: ["Today: Running 45:00 (planned by Cora Coach)"])
        try await snapshot("home/dashboard", page, "many")
    }

    /// Someone under 18 is advised 60 active minutes a day, not 150 a week.
    @Test func homeForSomeoneUnder16() async throws {
        try await snapshot("home/dashboard", dashboard(name: "Tomás", age: 13, viewer: R.Viewers.teen), "under-16")
    }

    @Test func homeInPortuguese() async throws {
        try await snapshot("home/dashboard", dashboard(name: "Ana", age: 36, viewer: R.Viewers.ana, language: .ptPT), "pt", language: .ptPT)
    }
}
