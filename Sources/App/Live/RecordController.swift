import FieldhouseKit
import Fluent
import Vapor

/// `/record`: the recorder in the browser (GPS, a heart-rate strap, offline). The page is the
/// script's: it keeps every reading in the browser first and sends it through the device API with
/// a device token it asks for once (`POST /record/device`), so a recording survives a reload, a lost
/// network and an expired session alike.
struct RecordController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(LivePath.record, use: page)
        routes.post(LivePath.recordDevice, use: device)
    }

    struct RecordPage: Encodable {
        struct Sport: Encodable {
            let value: String
            let label: String
            let selected: Bool
            /// "pace" for sports read in minutes per kilometre or mile, "speed" for the others.
            let measure: String
            let autoPause: Bool
        }

        struct Zone: Encodable {
            let number: Int
            let low: Int
            let high: Int
        }

        struct Team: Encodable {
            let id: String
            let name: String
        }

        struct Person: Encodable {
            let username: String
            let name: String
        }

        struct URLs: Encodable {
            let device: String
            let api: String
            let importFile: String
            let addByHand: String
            let devices: String
            let workouts: String
        }

        let layout: Layout
        let sports: [Sport]
        let zones: [Zone]
        let maxAccuracy: Double
        /// `{"running": 12.5, …}` in m/s: the same limits the server's summary keeps to.
        let topSpeeds: String
        let imperial: Bool
        let under16: Bool
        let teams: [Team]
        let people: [Person]
        let hasCoaches: Bool
        let urls: URLs
    }

    func page(req: Request) async throws -> View {
        let user = try req.requireUser()
        let userID = try user.requireID()
        let today = req.clock.today
        let under16 = user.isUnder16(on: today)
        let last = try await Workout.query(on: req.db).filter(\.$user.$id == userID).filter(\.$source == "device")
            .sort(\.$startMS, .descending).first()
        let chosen = last.flatMap { WorkoutSport(rawValue: $0.sport) } ?? .running
        let sports = WorkoutSport.allCases.map { sport in
            RecordPage.Sport(
                value: sport.rawValue, label: sport.label, selected: sport == chosen,
                measure: RecordedSport.measure(sport), autoPause: RecordedSport.autoPauseSports.contains(sport))
        }
        let limits = user.heartRateZones?.limits ?? []
        let zones = limits.enumerated().map { index, low in
            RecordPage.Zone(number: index + 1, low: low, high: index + 1 < limits.count ? limits[index + 1] - 1 : user.heartRateZones?.maximum ?? low)
        }
        let speeds = Dictionary(uniqueKeysWithValues: WorkoutSport.allCases.map { ($0.rawValue, Plausible.topSpeed($0)) })
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let teams =
            under16
            ? []
            : try await Membership.query(on: req.db).filter(\.$user.$id == userID).with(\.$team).all()
                .map { RecordPage.Team(id: SiteURL.id(try $0.team.requireID()), name: $0.team.name) }.sorted { $0.name < $1.name }
        let friendIDs = try await PeopleQueries.friendIDs(of: userID, on: req.db)
        let people =
            friendIDs.isEmpty
            ? []
            : try await User.query(on: req.db).filter(\.$id ~~ friendIDs).sort(\.$displayName).all()
                .map { RecordPage.Person(username: $0.username, name: $0.displayName) }
        let page = RecordPage(
            layout: req.layout(title: t("Record a workout"), section: .workouts, hasForms: true),
            sports: sports, zones: zones, maxAccuracy: WorkoutSummary.worstAccuracy,
            topSpeeds: String(decoding: try encoder.encode(speeds), as: UTF8.self), imperial: user.units == .imperial,
            under16: under16, teams: teams, people: people,
            hasCoaches: !(try await AthleteAccess.coachIDs(of: userID, on: req.db)).isEmpty,
            urls: .init(
                device: SiteURL.recordDevice.path, api: "/api/v1", importFile: SiteURL.importWorkouts.path, addByHand: SiteURL.newWorkout.path,
                devices: SiteURL.deviceSettings.path, workouts: SiteURL.workouts.path))
        return try await req.view.render("live/record", page)
    }

    struct DeviceForm: Content {
        var name: String?
        /// Whose recording the page holds: a token is never made for another account signed in since.
        var user: String?
    }

    struct DeviceAnswer: Content {
        let token: String
        let name: String
    }

    /// A device token for this browser's recorder, asked for by the page's script with the page's
    /// session and CSRF token. Listed and revocable under Settings → Devices like any other.
    func device(req: Request) async throws -> Response {
        guard let user = req.currentUser else {
            return try await APIErrorBody(error: .init(code: "unauthorized", message: t("Sign in again to record.")))
                .encodeResponse(status: .unauthorized, for: req)
        }
        let form = try? req.content.decode(DeviceForm.self)
        if let expected = form?.user, !expected.isEmpty, expected.lowercased() != user.username {
            return try await APIErrorBody(
                error: .init(code: "other_account", message: t("Someone else is signed in on this browser. Sign in as the person recording to send it."))
            ).encodeResponse(status: .conflict, for: req)
        }
        let name = (form?.name ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        guard !name.isEmpty, name.count <= 60 else {
            return try await APIErrorBody(error: .init(code: "invalid_form", message: t("Keep the name to 60 characters.")))
                .encodeResponse(status: .unprocessableEntity, for: req)
        }
        let userID = try user.requireID()
        let active = try await DeviceToken.query(on: req.db).filter(\.$user.$id == userID).filter(\.$revokedAt == nil).count()
        guard active < DeviceToken.maxActive else {
            return try await APIErrorBody(
                error: .init(
                    code: "too_many_devices",
                    message: tn(
                        "You have {count} device already. Revoke one you no longer use first.",
                        "You have {count} devices already. Revoke one you no longer use first.", active))
            ).encodeResponse(status: .conflict, for: req)
        }
        let token = "fhd_" + RandomToken.make()
        try await DeviceToken(user: userID, name: name, tokenHash: RandomToken.hash(token)).create(on: req.db)
        let response = try await DeviceAnswer(token: token, name: name).encodeResponse(status: .created, for: req)
        response.headers.replaceOrAdd(name: .cacheControl, value: "no-store")
        return response
    }
}
