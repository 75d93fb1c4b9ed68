import Vapor

/// `POST /workouts/{id}/comments`: the one thread under a workout. Anyone who may see the workout
/// writes for everyone who may; the athlete and their coaches can mark a comment "only my
/// coaches". Workouts keeps neither kind itself: it hands the comment to the companion features
/// (Community keeps the open ones, Coaching the coaches' ones), so it names neither.
struct WorkoutCommentController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.post(WorkoutPath.workoutComments, use: add)
    }

    struct Form: Content {
        var body: String?
        /// "coaches" for a comment only the athlete and their coaches read.
        var audience: String?
    }

    func add(req: Request) async throws -> Response {
        let user = try req.requireUser()
        let workout = try await WorkoutAccess.load(req, id: req.parameters.get("id") ?? "").workout
        let form = try req.content.decode(Form.self)
        let page = SiteURL.workout(try workout.requireID())
        let comment = NewWorkoutComment(
            workout: workout, author: user, body: (form.body ?? "").trimmingCharacters(in: .whitespacesAndNewlines),
            onlyCoaches: form.audience == "coaches", now: req.now, today: req.clock.today)
        for companion in Features.workoutCompanions {
            switch try await companion.addComment(comment, on: req.db) {
            case .added(let anchor)?:
                req.flash(.success, t("Comment added."))
                return req.redirect(to: page.fragment(anchor))
            case .refused(let status, let reason)?:
                // A refused comment is a message above the thread, the page as it was.
                guard status != .notFound else { throw Abort(.notFound) }
                req.flash(.error, reason)
                return req.redirect(to: page.fragment("comments"))
            case nil: continue
            }
        }
        throw Abort(.notFound)
    }
}
