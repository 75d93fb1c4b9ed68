import Fluent

/// What Coaching puts in a person's export: comments they wrote, and coaching as coach or athlete.
extension Coaching {
    static var archiveEntries: [ArchiveEntry] {
        [
            // Not comments.json: Community writes that name, and a second entry of it hid the first on unzipping.
            ArchiveEntry(path: "coaching/comments.json", holds: t("comments you wrote on workouts")),
            ArchiveEntry(path: "coaching/", holds: t("coaching permissions and plans, as coach or athlete")),
        ]
    }

    static func exportAccount(_ archive: AccountArchive) async throws {
        let userID = archive.userID, db = archive.db
        try archive.add("coaching/comments.json", json: try await WorkoutComment.query(on: db).filter(\.$author.$id == userID).all())
        // A request held back from a child is theirs to never see, and looks sent to the coach.
        let grants = try await CoachGrant.query(on: db).group(.or) { $0.filter(\.$coach.$id == userID).filter(\.$athlete.$id == userID) }
            .with(\.$coach).with(\.$athlete).all()
            .filter { !($0.held && $0.$athlete.id == userID) }
        try archive.add(
            "coaching/grants.json",
            json: grants.map {
                [
                    "coach": $0.coach.username, "athlete": $0.athlete.username, "status": $0.status.rawValue,
                    "accepted_at": AccountArchive.time($0.acceptedAt),
                ]
            })
        let plans = try await PlannedWorkout.query(on: db)
            .group(.or) { $0.filter(\.$coach.$id == userID).filter(\.$athlete.$id == userID) }.sort(\.$day).all()
        try archive.add("coaching/plans.json", json: plans)
    }
}
