import FieldhouseKit
import Fluent
import Vapor

/// `POST /api/v1/workouts/{id}/live`: the recorder shares its running workout live, changes with
/// whom, or stops sharing (`"audience": "off"`). Device token only, like the rest of the recording.
struct LiveShareAPIController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.grouped(DeviceAuthMiddleware()).post(LivePath.apiShareLive, use: share)
    }

    struct Input: Decodable {
        @NotNull var audience: String?
        @NotNull var team: String?
        @NotNull var people: [String]?
    }

    struct Answer: Content {
        struct Live: Content {
            let audience: String
            let url: String
        }
        let live: Live?

        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(live, forKey: .live) // null, not missing, when not shared
        }
    }

    /// At most this many chosen people: a live run is for a few friends, not a mailing list.
    static let maxPeople = 50

    func share(req: Request) async throws -> Answer {
        let user = try req.auth.require(User.self)
        let workout = try await WorkoutFields.own(req)
        let input = try APIJSON.decode(Input.self, from: req)
        guard let name = input.audience else {
            throw refused(t("audience is missing. One of: off, {audiences}.", LiveShare.Audience.allCases.map(\.rawValue).joined(separator: ", ")))
        }
        guard workout.endMS == nil else {
            throw APIError(status: .conflict, code: "finished", reason: t("This workout is finished; only a recording can be shared live."))
        }
        let workoutID = try workout.requireID()
        if name == "off" {
            // Kept as "off" rather than deleted: sharing it again is not news a second time.
            if let share = try await LiveShare.query(on: req.db).filter(\.$workout.$id == workoutID).first() {
                share.audienceName = "off"
                share.teamID = nil
                try await share.save(on: req.db)
            }
            try await req.application.liveBus.publish(LiveTopic.workout(workoutID), on: req.db)
            return Answer(live: nil)
        }
        guard let audience = LiveShare.Audience(rawValue: name) else {
            throw refused(t("audience must be one of: off, {audiences}.", LiveShare.Audience.allCases.map(\.rawValue).joined(separator: ", ")))
        }
        let team = try input.team.flatMap { raw -> UUID? in
            guard audience == .team else { return nil }
            guard let id = UUID(uuidString: raw) else { throw refused(t("team must be a team's id.")) }
            return id
        }
        if audience == .team, team == nil { throw refused(t("Choose one of your teams.")) }
        let people = audience == .people ? try await chosen(input.people ?? [], on: req.db) : []
        if let reason = try await LiveAccess.refusal(audience, team: team, people: people, owner: user, today: req.clock.today, on: req.db) {
            throw refused(reason)
        }
        let isNew = try await save(workoutID, owner: user, audience: audience, team: team, people: people, on: req.db)
        try await req.application.liveBus.publish(LiveTopic.workout(workoutID), on: req.db)
        if isNew {
            try await LiveNews.tell(about: workout, owner: user, audience: audience, team: team, people: people, today: req.clock.today, on: req.db)
        }
        return Answer(live: .init(audience: audience.rawValue, url: SiteURL.live(workoutID).path))
    }

    private func refused(_ reason: String) -> APIError {
        APIError(status: .unprocessableEntity, code: "not_allowed", reason: reason)
    }

    /// The people named, by username; an unknown name is refused rather than quietly left out.
    private func chosen(_ usernames: [String], on db: any Database) async throws -> [UUID] {
        guard usernames.count <= Self.maxPeople else { throw refused(t("Choose at most {maximum} people.", Self.maxPeople)) }
        let names = Set(usernames.map { $0.lowercased() })
        guard names.allSatisfy({ !$0.isEmpty && $0.utf8.count <= 64 }) else { throw refused(t("people must be usernames.")) }
        let users = try await User.query(on: db).filter(\.$username ~~ Array(names)).all()
        guard users.count == names.count else { throw refused(t("Only people who follow you and whom you follow back can be chosen.")) }
        return try users.map { try $0.requireID() }
    }

    /// Writes the share; true when the recording was not shared before (its audience is then told).
    private func save(_ workoutID: UUID, owner: User, audience: LiveShare.Audience, team: UUID?, people: [UUID], on db: any Database) async throws -> Bool {
        try await db.inTransaction { db in
            let existing = try await LiveShare.query(on: db).filter(\.$workout.$id == workoutID).first()
            let ownerID = try owner.requireID()
            let share = existing ?? LiveShare(workout: workoutID, user: ownerID, audience: audience, team: team)
            share.audienceName = audience.rawValue
            share.teamID = team
            try await share.save(on: db)
            let shareID = try share.requireID()
            try await LiveSharePerson.query(on: db).filter(\.$share.$id == shareID).delete()
            for person in people { try await LiveSharePerson(share: shareID, user: person).create(on: db) }
            return existing == nil
        }
    }
}
