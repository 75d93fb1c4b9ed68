import Fluent
import SQLKit
import Vapor

/// `/settings/reset-workouts`: a fresh start for one's training history. Deletes every workout,
/// sample, goal and reminder of the signed-in person once they type their username; their
/// profile, teams, games, challenges, devices, routes and privacy zones stay.
struct ResetWorkoutsController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(WorkoutPath.resetWorkoutsSettings, use: page)
        routes.post(WorkoutPath.resetWorkoutsSettings, use: resetAll)
    }

    struct Page: Encodable {
        let layout: Layout
        let workouts: String
        let samples: String
        let goals: String
        let reminders: String
        let username: String
        let errors: FieldErrors
    }

    private func render(_ req: Request, user: User, errors: FieldErrors = [:]) async throws -> Response {
        let userID = try user.requireID()
        let sql = req.db.sql
        var samples = 0
        for table in SampleStore.sampleTables {
            struct Count: Decodable { let n: Int }
            samples +=
                try await sql.raw("SELECT COUNT(*) AS n FROM \(unsafeRaw: table) WHERE user_id = \(bind: userID)")
                .first(decoding: Count.self)?.n ?? 0
        }
        // Counts grouped in thousands as `Int.grouped` writes them ("8,426").
        let workouts = try await Workout.query(on: req.db).filter(\.$user.$id == userID).count()
        let goals = try await Goal.query(on: req.db).filter(\.$user.$id == userID).count()
        let reminders = try await Reminder.query(on: req.db).filter(\.$user.$id == userID).count()
        let page = Page(
            layout: req.layout(title: t("Reset workouts")),
            workouts: tn("{number} workout", "{number} workouts", workouts, workouts.grouped),
            samples: tn("{number} recorded sample", "{number} recorded samples", samples, samples.grouped),
            goals: tn("{number} goal", "{number} goals", goals, goals.grouped),
            reminders: tn("{number} reminder", "{number} reminders", reminders, reminders.grouped),
            username: user.username, errors: errors)
        return try await req.view.render("workouts/reset", page).encodeResponse(status: errors.isEmpty ? .ok : .unprocessableEntity, for: req)
    }

    func page(req: Request) async throws -> Response {
        try await render(req, user: try req.requireUser())
    }

    func resetAll(req: Request) async throws -> Response {
        let user = try req.requireUser()
        let typed = (try? req.content.get(String.self, at: "username"))?.trimmingCharacters(in: .whitespaces) ?? ""
        guard typed.lowercased() == user.username.lowercased() else {
            return try await render(
                req, user: user,
                errors: [
                    "username": typed.isEmpty
                        ? t("Type your username to confirm.") : t("That is not your username; nothing was deleted.")
                ])
        }
        let userID = try user.requireID()
        try await req.db.inTransaction { db in
            try await SampleStore.deleteAllSamples(of: userID, on: db)
            // Files hang off their workouts and go with them.
            try await Workout.query(on: db).filter(\.$user.$id == userID).delete()
            try await Goal.query(on: db).filter(\.$user.$id == userID).delete()
            try await Reminder.query(on: db).filter(\.$user.$id == userID).delete()
        }
        req.flash(.success, t("Your workouts, recorded data, goals and reminders are deleted. Everything else is as it was."))
        return req.redirect(to: .workouts)
    }
}
