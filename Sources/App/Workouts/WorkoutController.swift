import FieldhouseKit
import Fluent
import SQLKit
import Vapor

/// `/workouts` (my history), `/workouts/{id}` (page, `.gpx` and `.csv` exports) and deleting one.
struct WorkoutController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(WorkoutPath.workouts, use: history)
        routes.get(WorkoutPath.workout, use: show)
        routes.post(WorkoutPath.deleteWorkout, use: delete)
    }

    // MARK: History

    struct Row: Encodable {
        let id: String
        let when: String
        let sport: String
        let name: String
        let duration: String
        let distance: String
        let heartRate: String
        let calories: String
    }

    struct Group: Encodable {
        let label: String
        let count: Int
        let duration: String
        let distance: String
        let calories: String
        var rows: [Row]
    }

    /// What the totals need of every workout in the range.
    struct HistoryNumbers {
        let startMS: Int64
        let duration: Double
        let distance: Double?
        let calories: Double?
    }

    /// What a group's line adds up: the distance is nil when no workout in it has one.
    struct HistoryTotals {
        let count: Int
        let duration: Double
        let distance: Double?
        let calories: Double

        init(count: Int, duration: Double, distance: Double?, calories: Double) {
            (self.count, self.duration, self.distance, self.calories) = (count, duration, distance, calories)
        }

        init(_ workouts: [HistoryNumbers]) {
            let distances = workouts.compactMap(\.distance)
            self.init(
                count: workouts.count, duration: workouts.map(\.duration).reduce(0, +),
                distance: distances.isEmpty ? nil : distances.reduce(0, +), calories: workouts.compactMap(\.calories).reduce(0, +))
        }
    }

    /// A row of this page, read without a Fluent model.
    struct HistoryRow: Decodable {
        let id: UUID
        let startMS: Int64
        let sport: String
        let name: String
        let duration: Double
        let distance: Double?
        let avgHeartRate: Int?
        let calories: Double?

        enum CodingKeys: String, CodingKey {
            case id, sport, name
            case startMS = "start_ms", duration = "duration_s", distance = "distance_m", avgHeartRate = "avg_hr", calories = "calories_kcal"
        }
    }

    struct HistoryPage: Encodable {
        let layout: Layout
        let sports: [SelectOption]
        let groupings: [SelectOption]
        let from: String
        let to: String
        let groups: [Group]
        let total: Group
        let pager: Pager
        let error: String?
    }

    func history(req: Request) async throws -> Response {
        let user = try req.requireUser()
        let format = Format(user)
        let sport = req.query[String.self, at: "sport"].flatMap { WorkoutSport(rawValue: $0) }
        let asked: String = req.query[String.self, at: "group"] ?? "week"
        let grouping: String = ["day", "week", "month"].contains(asked) ? asked : "week"
        let fromText = req.query[String.self, at: "from"] ?? "", toText = req.query[String.self, at: "to"] ?? ""
        var error: String?
        let from = fromText.isEmpty ? nil : LocalTime.instant(day: fromText, time: "00:00", zone: user.timeZone)
        let to = toText.isEmpty ? nil : LocalTime.instant(day: toText, time: "00:00", zone: user.timeZone)?.addingTimeInterval(86_400)
        if (!fromText.isEmpty && from == nil) || (!toText.isEmpty && to == nil) { error = t("Enter dates as YYYY-MM-DD.") }
        if let from, let to, to <= from { error = t("The end date must not be before the start date.") }
        let filter = try Self.historyFilter(of: user, sport: sport, from: error == nil ? from : nil, to: error == nil ? to : nil)
        let sql = req.db.sql
        var pager = Pager(req: req, perPage: 30)
        let sportValue: String = sport?.rawValue ?? ""
        let groupValue: String = grouping == "week" ? "" : grouping
        let links: [(String, String)] = [("sport", sportValue), ("group", groupValue), ("from", fromText), ("to", toText)]
        let rows = try await Self.historyRows(where: filter, limit: pager.fetchLimit, offset: pager.offset, on: sql)
        let page = pager.finish(rows, at: .workouts, query: links)
        let around = try await Self.historyNumbers(where: filter, around: page, on: sql)
        let groups = Self.historyGroups(page, around: around, grouping: grouping, format: format)
        let total = try await Self.historyTotal(where: filter, on: sql)
        let context = HistoryPage(
            layout: req.layout(title: t("Workouts"), section: .workouts),
            sports: WorkoutSport.allCases.map { SelectOption(value: $0.rawValue, label: $0.label, selected: $0 == sport) },
            groupings: [("day", t("By day")), ("week", t("By week")), ("month", t("By month"))].map {
                SelectOption(value: $0.0, label: $0.1, selected: $0.0 == grouping)
            },
            from: fromText, to: toText, groups: groups, total: Self.summary(t("All"), total ?? HistoryTotals([]), format: format), pager: pager,
            error: error)
        return try await req.view.render("workouts/index", context).encodeResponse(status: error == nil ? .ok : .unprocessableEntity, for: req)
    }

    /// The finished workouts of the user, of a sport if one is chosen, within the dates if given.
    private static func historyFilter(of user: User, sport: WorkoutSport?, from: Date?, to: Date?) throws -> SQLQueryString {
        var filter: SQLQueryString = "user_id = \(bind: try user.requireID()) AND end_ms IS NOT NULL"
        if let sport { filter.appendInterpolation(unsafeRaw: " AND sport = "); filter.appendInterpolation(bind: sport.rawValue) }
        if let from {
            filter.appendInterpolation(unsafeRaw: " AND start_ms >= "); filter.appendInterpolation(bind: Int64(from.timeIntervalSince1970 * 1000))
        }
        if let to { filter.appendInterpolation(unsafeRaw: " AND start_ms < "); filter.appendInterpolation(bind: Int64(to.timeIntervalSince1970 * 1000)) }
        return filter
    }

    /// One page of the history, newest first.
    private static func historyRows(where filter: SQLQueryString, limit: Int, offset: Int, on sql: any SQLDatabase) async throws -> [HistoryRow] {
        try await sql.raw(
            """
            SELECT id, start_ms, sport, name, duration_s, distance_m, avg_hr, calories_kcal FROM workouts WHERE \(filter)
            ORDER BY start_ms DESC, id DESC LIMIT \(bind: limit) OFFSET \(bind: offset)
            """
        ).all(decoding: HistoryRow.self)
    }

    /// The numbers of the workouts around a page, enough for the subtotals of its groups.
    ///
    /// Subtotals are needed only for the groups this page shows, and a group spans at most a
    /// month: the numbers of the workouts from a month before the page's oldest to a month after
    /// its newest are enough, however long the history (2,000 workouts read and grouped at every
    /// request were most of this page's time). Rows skip Fluent's models, whose decoding by
    /// reflection cost more than the rest of the page.
    private static func historyNumbers(where filter: SQLQueryString, around page: [HistoryRow], on sql: any SQLDatabase) async throws
        -> [HistoryNumbers]
    {
        let month: Int64 = 32 * 86_400_000
        if page.isEmpty { return [] }
        return try await sql.numberRows(
            """
            SELECT start_ms, duration_s, distance_m, calories_kcal FROM workouts WHERE \(filter)
              AND start_ms >= \(bind: (page.map(\.startMS).min() ?? 0) - month) AND start_ms <= \(bind: (page.map(\.startMS).max() ?? 0) + month)
            """,
            columns: ["start_ms", "duration_s", "distance_m", "calories_kcal"]
        ).map { HistoryNumbers(startMS: Int64($0[0] ?? 0), duration: $0[1] ?? 0, distance: $0[2], calories: $0[3]) }
    }

    /// The totals of the whole range, added up by the database.
    private static func historyTotal(where filter: SQLQueryString, on sql: any SQLDatabase) async throws -> HistoryTotals? {
        try await sql.numberRows(
            "SELECT COUNT(*) AS n, SUM(duration_s) AS duration, SUM(distance_m) AS distance, SUM(calories_kcal) AS calories FROM workouts WHERE \(filter)",
            columns: ["n", "duration", "distance", "calories"]
        ).first.map { HistoryTotals(count: Int($0[0] ?? 0), duration: $0[1] ?? 0, distance: $0[2], calories: $0[3] ?? 0) }
    }

    /// The page's workouts in their groups, each group with the subtotals of all its workouts.
    private static func historyGroups(_ page: [HistoryRow], around: [HistoryNumbers], grouping: String, format: Format) -> [Group] {
        let byKey = Dictionary(grouping: around) { groupKey($0.startMS, grouping: grouping, zone: format.zone) }
        var groups: [Group] = []
        for workout in page {
            let k = groupKey(workout.startMS, grouping: grouping, zone: format.zone)
            let label = groupLabel(k, grouping: grouping)
            if groups.last?.label != label { groups.append(summary(label, HistoryTotals(byKey[k] ?? []), format: format)) }
            groups[groups.count - 1].rows.append(
                Row(
                    id: SiteURL.id(workout.id), when: format.when(workout.startMS),
                    sport: (WorkoutSport(rawValue: workout.sport) ?? .other).label, name: workout.name,
                    duration: Format.duration(workout.duration), distance: format.distance(workout.distance),
                    heartRate: workout.avgHeartRate.map { "\($0) bpm" } ?? "–",
                    calories: workout.calories.map { "\(Format.whole($0)) kcal" } ?? "–"))
        }
        return groups
    }

    /// The group a workout falls in: its day, the Monday of its week or its month.
    private static func groupKey(_ startMS: Int64, grouping: String, zone: TimeZone) -> String {
        let clock = WallClock(Date(timeIntervalSince1970: Double(startMS) / 1000), zone: zone)
        switch grouping {
        case "day": return Format.isoDay(clock)
        case "month": return "\(clock.year)-\(WallClock.pad(clock.month, 2))"
        default:
            // The Monday of the week.
            let days = SampleTime.daysFromCivil(year: clock.year, month: clock.month, day: clock.day) - (clock.weekday + 6) % 7
            let monday = WallClock(Date(timeIntervalSince1970: Double(days) * 86_400), secondsFromGMT: 0)
            return Format.isoDay(monday)
        }
    }

    /// A group's heading.
    private static func groupLabel(_ key: String, grouping: String) -> String {
        let parts = key.split(separator: "-").compactMap { Int($0) }
        switch grouping {
        case "day", "week":
            let days = SampleTime.daysFromCivil(year: parts[0], month: parts[1], day: parts[2])
            let clock = WallClock(Date(timeIntervalSince1970: Double(days) * 86_400), secondsFromGMT: 0)
            let day = Format.weekdayDayAndYear(clock)
            return grouping == "week" ? t("Week of {day}", day) : day
        default:
            return Format.shortMonthAndYear(month: parts[1], year: parts[0])
        }
    }

    /// A group's line of totals.
    private static func summary(_ label: String, _ totals: HistoryTotals, format: Format) -> Group {
        Group(
            label: label, count: totals.count,
            // A span in words ("3 h 5 min"): beside a count, "3:05:00" read as a time of day.
            duration: Int(exactly: (totals.duration / 60).rounded()).map(Format.hoursAndMinutes) ?? "–",
            distance: totals.distance.map { format.distance($0) } ?? "–",
            calories: Int(exactly: totals.calories.rounded()).map { "\($0.grouped) kcal" } ?? "–", rows: [])
    }

    // MARK: One workout

    /// The workout if the viewer may see it; 404 otherwise, as if it did not exist.
    private func visible(_ req: Request, id raw: String) async throws -> Workout {
        try await WorkoutAccess.load(req, id: raw).workout
    }

    func show(req: Request) async throws -> Response {
        let raw = req.parameters.get("id") ?? ""
        for suffix in [".gpx", ".csv"] where raw.hasSuffix(suffix) {
            let workout = try await visible(req, id: String(raw.dropLast(suffix.count)))
            guard try await WorkoutAccess.canDownload(workout, viewer: req.currentUser, on: req.db) else { throw Abort(.notFound) }
            return try await export(req, workout: workout, format: suffix)
        }
        let workout = try await visible(req, id: raw)
        guard let owner = try await User.find(workout.$user.id, on: req.db) else { throw Abort(.notFound) }
        let zones = try await WorkoutAccess.hiddenZones(workout, viewer: req.currentUser, on: req.db)
        let drawings = try await WorkoutDrawings.load(
            workout, format: Format(req.currentUser ?? owner), hiddenZones: zones,
            tiles: req.application.mapTiles, ownerView: req.currentUser?.id == owner.id, on: req)
        let goals = req.currentUser?.id == owner.id ? try await Goal.query(on: req.db).filter(\.$user.$id == workout.$user.id).all() : []
        let conversation = try await WorkoutAccess.conversation(under: workout, owner: owner, viewer: req.currentUser, on: req.db)
        let isOwner = req.currentUser?.id == owner.id
        let profile = BackLink(.person(username: owner.username), owner.displayName)
        let home = BackLink(.home, t("Home"))
        var leadsHere =
            isOwner
            ? [BackLink(.workouts, t("Workouts")), home, BackLink(.heartRate, t("Heart rate")), BackLink(.routes, t("Routes")), profile]
            : (conversation?.leadsHere ?? []) + [home]
        // The owner's name only for a viewer who came from their profile and may still see it.
        if !isOwner, BackLink.came(from: profile, on: req),
            PersonAccess.canViewProfile(
                owner, try await Relations.load(viewer: req.currentUser, people: [owner.requireID()], today: req.clock.today, on: req.db).relation(to: owner))
        {
            leadsHere.append(profile)
        }
        let back = BackLink.back(on: req, to: leadsHere[0], from: leadsHere)
        let page = try WorkoutPage(
            layout: req.layout(title: workout.name, section: .workouts, hasForms: req.currentUser != nil), workout: workout, drawings: drawings,
            viewer: req.currentUser, owner: owner, ownerUnder16: owner.isUnder16(on: req.clock.today), back: back, goals: goals, conversation: conversation,
            thread: try await WorkoutAccess.thread(under: workout, owner: owner, viewer: req.currentUser, today: req.clock.today, on: req.db),
            responses: try await WorkoutAccess.responses(to: workout, viewer: req.currentUser, on: req.db),
            canDownload: try await WorkoutAccess.canDownload(workout, viewer: req.currentUser, on: req.db))
        return try await req.view.render("workouts/show", page).encodeResponse(for: req)
    }

    /// GPX 1.1 (heart rate, cadence and the device's speed in Garmin's TrackPointExtension v2, so a
    /// re-import computes the same numbers) or CSV. Anyone else gets only the samples outside the
    /// owner's privacy zones (and, in CSV, only those with a position), split where parts are hidden.
    private func export(_ req: Request, workout: Workout, format: String) async throws -> Response {
        let zones = try await WorkoutAccess.hiddenZones(workout, viewer: req.currentUser, on: req.db)
        guard var timeline = try await WorkoutTimeline.load(workout, ownerView: req.currentUser?.id == workout.$user.id, on: req.db) else {
            throw Abort(.notFound)
        }
        var starts = workout.segmentStarts(in: timeline.points)
        if req.currentUser?.id != workout.$user.id {
            // The visible part only (`VisibleTimeline`): nothing of the time inside a zone, a new
            // segment where the track comes out of one, and in the file only points with a position.
            let visible = VisibleTimeline(timeline.points, zones: zones)
            let breaks = Set(starts.map { timeline.points[$0].time }).union(visible.resumes)
            var kept: [TrackPoint] = []
            var breakPending = false
            starts = []
            for point in visible.points {
                if breaks.contains(point.time) { breakPending = true }
                guard point.coordinate != nil else { continue }
                if breakPending && !kept.isEmpty { starts.insert(kept.count) }
                breakPending = false
                kept.append(point)
            }
            timeline.points = kept
        }
        let filename = Slug.make(workout.name).isEmpty ? "workout" : Slug.make(workout.name)
        let type = format == ".gpx" ? "application/gpx+xml" : "text/csv; charset=utf-8"
        let body =
            format == ".gpx"
            ? WorkoutExport.gpx(workout, points: timeline.points, segmentStarts: starts)
            : WorkoutExport.csv(timeline.points)
        return Response(
            status: .ok,
            headers: [
                "Content-Type": type, "Cache-Control": "private, no-store",
                "Content-Disposition": "attachment; filename=\"\(filename)\(format)\"",
            ], body: .init(string: body))
    }

    func delete(req: Request) async throws -> Response {
        let user = try req.requireUser()
        guard let id = req.parameters.get("id", as: UUID.self),
            let workout = try await Workout.query(on: req.db).filter(\.$id == id).filter(\.$user.$id == user.requireID()).first()
        else {
            throw Abort(.notFound)
        }
        guard (try? req.content.get(String.self, at: "confirm")) == "yes" else {
            req.flash(.error, t("Tick the box to confirm that the workout and its recorded data should be deleted."))
            return req.redirect(to: .workout(id))
        }
        try await req.db.inTransaction { db in
            try await SampleStore.deleteSamples(of: workout, on: db)
            try await workout.delete(on: db)
        }
        // Anyone watching it live is told it is gone.
        try await req.application.liveBus.publish(LiveTopic.workout(id), on: req.db)
        req.flash(.success, t("Deleted “{name}”.", workout.name))
        return req.redirect(to: .workouts)
    }
}
