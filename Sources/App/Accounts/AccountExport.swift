import FieldhouseKit
import Fluent
import SQLKit
import Vapor

/// Everything the server holds about a person, as one ZIP under `<data>/exports/<id>.zip`: the
/// profile, every workout (JSON, and GPX and CSV of its track), every raw sample as CSV, the
/// originals of their photos, their challenges, replies, comments, teams, game answers, coaching
/// and settings. Built in the background (years of 1 Hz heart rate take a while) and written
/// piece by piece, so memory stays flat whatever the account's size.
///
/// Not included, because the server does not keep them: the original uploaded GPX/TCX/FIT files
/// (only their hash is kept; the GPX here is made from the stored samples) and passwords.
enum AccountExport {
    static func path(for userID: UUID, config: AppConfig) -> String {
        config.dataDirectory + "/exports/" + userID.uuidString.lowercased() + ".zip"
    }

    /// How long a finished export is offered. It holds everything about a person, so it is not kept
    /// on the server longer than it takes to fetch it.
    static let keptFor: TimeInterval = 7 * 24 * 3600

    struct Ready {
        let path: String
        let made: Date
        let bytes: Int
    }

    /// This person's finished export, or nil; an export older than `keptFor` is deleted instead.
    static func ready(for userID: UUID, config: AppConfig, now: Date = Date()) -> Ready? {
        let path = path(for: userID, config: config)
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
            let made = attributes[.modificationDate] as? Date, let bytes = attributes[.size] as? Int
        else { return nil }
        guard now.timeIntervalSince(made) < keptFor else {
            try? FileManager.default.removeItem(atPath: path)
            return nil
        }
        return Ready(path: path, made: made, bytes: bytes)
    }

    /// Deletes every export past `keptFor` (every hour while serving), and at start, with
    /// `unfinished`, the half-made ones a restart interrupted.
    static func removeExpired(config: AppConfig, unfinished: Bool, now: Date = Date()) {
        let folder = config.dataDirectory + "/exports"
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] {
            let path = folder + "/" + name
            let made = (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date
            let part = name.hasSuffix(".part")
            if part ? unfinished : made.map({ now.timeIntervalSince($0) >= keptFor }) ?? true {
                try? FileManager.default.removeItem(atPath: path)
            }
        }
    }

    /// The raw sample tables and their columns, exported as they are stored.
    private static let sampleTables: [(table: String, columns: [(name: String, kind: SampleTable.Column.Kind)])] = [
        ("heart_rate_samples", [("bpm", .integer)]),
        ("rr_intervals", [("ms", .real)]),
        ("location_samples", [("lat", .real), ("lon", .real), ("ele", .real), ("accuracy", .real), ("speed", .real)]),
        ("cadence_samples", [("rpm", .integer)]),
        ("step_samples", [("count", .integer)]),
        ("motion_samples", [("activity", .text), ("confidence", .integer)]),
    ]

    static func write(for userID: UUID, on db: any Database, config: AppConfig) async throws {
        guard let user = try await User.find(userID, on: db) else { return }
        let final = path(for: userID, config: config)
        let temporary = final + ".part"
        FileManager.default.createFile(atPath: temporary, contents: nil, attributes: [.posixPermissions: 0o600])
        guard let handle = FileHandle(forWritingAtPath: temporary) else {
            throw Abort(.internalServerError, reason: "Could not create the export file.")
        }
        do {
            let zip = try ZipWriter { try handle.write(contentsOf: $0) }
            try await fill(zip, user: user, on: db, config: config)
            try zip.finish()
            try handle.synchronize()
            try handle.close()
        } catch {
            try? handle.close()
            try? FileManager.default.removeItem(atPath: temporary)
            throw error
        }
        // Deleted while this ran: nothing of theirs may stay.
        guard try await User.find(userID, on: db) != nil else {
            try? FileManager.default.removeItem(atPath: temporary)
            return
        }
        guard rename(temporary, final) == 0 else { throw Abort(.internalServerError, reason: "Could not finish the export file.") }
    }

    private static func json(_ value: some Encodable) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return Array(try encoder.encode(value))
    }

    private struct Profile: Encodable {
        let username, displayName, email: String
        let bio, birthDate: String?
        let gender: String
        let heightCm, weightKg: Double?
        let homeName: String?
        let homeLatitude, homeLongitude: Double?
        let timeZone, units, visibility: String
        let continuousHeartRate: Bool
        let maxHeartRate, restingHeartRate: Int?
        let zoneBasis, zonePercents: String?
        let sports: [String]
        let following, followers: [String]
        let createdAt: Date?
    }

    private static func fill(_ zip: ZipWriter, user: User, on db: any Database, config: AppConfig) async throws {
        let userID = try user.requireID()
        try zip.add("README.txt", Array(readme.utf8))

        let sports = try await UserSport.query(on: db).filter(\.$user.$id == userID).all().map(\.sport)
        let following = try await Follow.query(on: db).filter(\.$follower.$id == userID).with(\.$followee).all().map(\.followee.username)
        let followers = try await Follow.query(on: db).filter(\.$followee.$id == userID).with(\.$follower).all().map(\.follower.username)
        try zip.add(
            "profile.json",
            json(
                Profile(
                    username: user.username, displayName: user.displayName, email: user.email, bio: user.bio, birthDate: user.birthDate,
                    gender: user.gender.rawValue, heightCm: user.heightCm, weightKg: user.weightKg, homeName: user.homeName,
                    homeLatitude: user.homeLat, homeLongitude: user.homeLon, timeZone: user.timeZone, units: user.units.rawValue,
                    visibility: user.visibility.rawValue, continuousHeartRate: user.continuousHeartRate, maxHeartRate: user.maxHeartRate,
                    restingHeartRate: user.restingHeartRate, zoneBasis: user.zoneBasis, zonePercents: user.zonePercents,
                    sports: sports, following: following.sorted(), followers: followers.sorted(), createdAt: user.createdAt
                )))
        try zip.add("settings/goals.json", json(try await Goal.query(on: db).filter(\.$user.$id == userID).all()))
        try zip.add("settings/reminders.json", json(try await Reminder.query(on: db).filter(\.$user.$id == userID).all()))
        try zip.add("settings/privacy_zones.json", json(try await SavedPrivacyZone.query(on: db).filter(\.$user.$id == userID).all()))
        try zip.add(
            "settings/devices.json",
            json(
                try await DeviceToken.query(on: db).filter(\.$user.$id == userID).all()
                    .map {
                        ["name": $0.name, "last_used_at": $0.lastUsedAt.map { SampleTime.rfc3339(milliseconds: Int64($0.timeIntervalSince1970 * 1000)) } ?? ""]
                    }))
        try zip.add("routes.json", json(try await Route.query(on: db).filter(\.$user.$id == userID).all()))

        // Workouts: the stored record, and the track as GPX (when it has positions) and CSV.
        let workouts = try await Workout.query(on: db).filter(\.$user.$id == userID).sort(\.$startMS).all()
        try zip.add("workouts.json", json(workouts))
        for workout in workouts {
            guard let timeline = try await WorkoutTimeline.load(workout, ownerView: true, on: db), !timeline.points.isEmpty else { continue }
            let day = SampleTime.rfc3339(milliseconds: workout.startMS).prefix(10)
            let name =
                "workouts/\(day)-\(Slug.make(workout.name).isEmpty ? "workout" : Slug.make(workout.name))-\(try workout.requireID().uuidString.lowercased().prefix(8))"
            if timeline.points.contains(where: { $0.latitude != nil }) {
                try zip.add(
                    name + ".gpx",
                    Array(
                        WorkoutExport.gpx(
                            workout, points: timeline.points,
                            segmentStarts: workout.segmentStarts(in: timeline.points)
                        ).utf8))
            }
            try zip.add(name + ".csv", Array(WorkoutExport.csv(timeline.points).utf8))
        }
        try await writeSamples(zip, userID: userID, on: db)

        // Photos: the originals as uploaded (they are the person's own), and what is known of them.
        let photos = try await Photo.query(on: db).filter(\.$owner.$id == userID).sort(\.$createdAt).all()
        try zip.add("photos.json", json(photos))
        for photo in photos {
            if let bytes = FileManager.default.contents(atPath: PhotoStore.originalPath(photo.originalFile, config: config)) {
                try zip.add("photos/" + photo.originalFile, Array(bytes), modified: photo.createdAt ?? Date())
            }
        }
        try zip.add("challenges/sent.json", json(try await Challenge.query(on: db).filter(\.$sender.$id == userID).all()))
        try zip.add("challenges/replies.json", json(try await ChallengeResponse.query(on: db).filter(\.$user.$id == userID).all()))
        try zip.add("comments.json", json(try await WorkoutComment.query(on: db).filter(\.$author.$id == userID).all()))

        let memberships = try await Membership.query(on: db).filter(\.$user.$id == userID).with(\.$team).all()
        try zip.add(
            "teams.json",
            json(
                memberships.map {
                    [
                        "team": $0.team.name, "slug": $0.team.slug, "role": $0.role.rawValue,
                        "since": $0.createdAt.map { SampleTime.rfc3339(milliseconds: Int64($0.timeIntervalSince1970 * 1000)) } ?? "",
                    ]
                }))
        // A game's place only where the person may see it (not while a protected game's organiser
        // has yet to accept them), as on the game's page.
        let answers = try await GamePlayer.query(on: db).filter(\.$user.$id == userID).with(\.$game).all()
        try zip.add(
            "games.json",
            json(
                answers.map { answer in
                    let game = answer.game
                    let showPlace = GameAccess.canSeeExactPlace(
                        privacy: game.privacy, isMember: game.$team.id != nil && answer.status != .requested,
                        isOrganiser: game.$organiser.id == userID, holdsPlace: answer.status == .joined)
                    return [
                        "game": game.id?.uuidString.lowercased() ?? "", "sport": game.sport, "place": showPlace ? game.placeName ?? "" : "",
                        "starts_at": SampleTime.rfc3339(milliseconds: Int64(game.startsAt.timeIntervalSince1970 * 1000)), "answer": answer.status.rawValue,
                    ]
                }))
        // A request held back from a child is theirs to never see, and looks sent to the coach.
        let grants = try await CoachGrant.query(on: db).group(.or) { $0.filter(\.$coach.$id == userID).filter(\.$athlete.$id == userID) }
            .with(\.$coach).with(\.$athlete).all()
            .filter { !($0.held && $0.$athlete.id == userID) }
        try zip.add(
            "coaching/grants.json",
            json(
                grants.map {
                    [
                        "coach": $0.coach.username, "athlete": $0.athlete.username, "status": $0.status.rawValue,
                        "accepted_at": $0.acceptedAt.map { SampleTime.rfc3339(milliseconds: Int64($0.timeIntervalSince1970 * 1000)) } ?? "",
                    ]
                }))
        try zip.add(
            "coaching/plans.json",
            json(
                try await PlannedWorkout.query(on: db)
                    .group(.or) { $0.filter(\.$coach.$id == userID).filter(\.$athlete.$id == userID) }.sort(\.$day).all()))
    }

    /// One CSV per sample table, read in pages along the table's key so no page is held long.
    private static func writeSamples(_ zip: ZipWriter, userID: UUID, on db: any Database) async throws {
        let sql = db as! any SQLDatabase
        for (table, columns) in sampleTables {
            try zip.begin("samples/\(table).csv")
            try zip.write(Array((["time"] + columns.map(\.name)).joined(separator: ",").utf8) + [0x0A])
            var after = Int64.min
            while true {
                let list = columns.map { "\"\($0.name)\"" }.joined(separator: ", ")
                let rows = try await sql.raw(
                    """
                    SELECT t, \(unsafeRaw: list) FROM \(ident: table) WHERE user_id = \(bind: userID) AND t > \(bind: after) ORDER BY t LIMIT 5000
                    """
                ).all()
                guard let last = rows.last else { break }
                var text = ""
                for row in rows {
                    var fields = [SampleTime.rfc3339(milliseconds: try row.decode(column: "t", as: Int64.self))]
                    for column in columns {
                        switch column.kind {
                        case .integer: fields.append((try row.decode(column: column.name, as: Int?.self)).map(String.init) ?? "")
                        case .real: fields.append((try row.decode(column: column.name, as: Double?.self)).map { String($0) } ?? "")
                        case .text: fields.append(Self.csvField(try row.decode(column: column.name, as: String?.self) ?? ""))
                        }
                    }
                    text += fields.joined(separator: ",") + "\n"
                }
                try zip.write(Array(text.utf8))
                after = try last.decode(column: "t", as: Int64.self)
            }
            try zip.end()
        }
    }

    private static func csvField(_ text: String) -> String {
        text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" }) ? "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : text
    }

    private static let readme = """
        Your Fieldhouse data
        ====================

        profile.json              your profile, sports, who you follow and who follows you
        settings/                 goals, reminders, privacy zones, devices (their names; tokens are never kept)
        routes.json               routes you saved
        workouts.json             every workout as stored (times are milliseconds since 1970, UTC)
        workouts/                 each workout's track: GPX 1.1 (with heart rate and cadence) and CSV
        samples/                  every sample recorded for you, one CSV per kind, times in UTC
        photos.json, photos/      your challenge and reply photos, as you uploaded them
        challenges/               challenges you sent and replies you made
        comments.json             comments you wrote on workouts
        teams.json, games.json    your teams and roles, and your answers and places in games
        coaching/                 coaching permissions and plans, as coach or athlete

        The files you imported (GPX, TCX, FIT) are not kept by the server, only what was read from them;
        the GPX files here are made from that.

        """
}
