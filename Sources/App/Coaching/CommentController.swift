import FieldhouseKit
import Fluent
import Vapor

/// Editing or deleting one's own comment for the coaches (written through the workout page's one
/// thread, `WorkoutCommentController`, and kept by `Coaching.addComment`). Only the athlete and
/// their coaches see those comments, whoever else may see the workout; to anyone else these
/// routes are 404.
struct CommentController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(CoachPath.editWorkoutComment, use: editPage)
        routes.post(CoachPath.editWorkoutComment, use: edit)
        routes.post(CoachPath.deleteWorkoutComment, use: delete)
    }

    struct EditPage: Encodable {
        let layout: Layout
        let workoutID: String
        let workoutName: String
        let commentID: String
        /// The comment in place on the workout page, for "back" and "cancel".
        let backURL: String
        let body: String
        let errors: FieldErrors
    }

    private func workout(_ req: Request) async throws -> (Workout, User) {
        let user = try req.requireUser()
        guard let id = req.parameters.get("id", as: UUID.self), let workout = try await Workout.find(id, on: req.db),
            try await WorkoutComments.canTalk(workout, viewer: user, on: req.db)
        else { throw Abort(.notFound) }
        return (workout, user)
    }

    private func mine(_ req: Request, workout: Workout, user: User) async throws -> WorkoutComment {
        guard let id = req.parameters.get("comment", as: UUID.self),
            let comment = try await WorkoutComment.query(on: req.db).filter(\.$id == id).filter(\.$workout.$id == workout.requireID())
                .filter(\.$author.$id == user.requireID()).first()
        else { throw Abort(.notFound) }
        return comment
    }

    func editPage(req: Request) async throws -> Response {
        let (workout, user) = try await workout(req)
        let comment = try await mine(req, workout: workout, user: user)
        return try await renderEdit(req, workout: workout, comment: comment, body: comment.body)
    }

    private func renderEdit(_ req: Request, workout: Workout, comment: WorkoutComment, body: String, errors: FieldErrors = [:]) async throws -> Response {
        let commentID = SiteURL.id(try comment.requireID())
        let page = EditPage(
            layout: req.layout(title: t("Edit comment")), workoutID: SiteURL.id(try workout.requireID()),
            workoutName: workout.name, commentID: commentID,
            backURL: SiteURL.workout(try workout.requireID()).fragment("comment-" + commentID), body: body, errors: errors)
        return try await req.view.render("coaching/comment_edit", page).encodeResponse(status: errors.isEmpty ? .ok : .unprocessableEntity, for: req)
    }

    func edit(req: Request) async throws -> Response {
        let (workout, user) = try await workout(req)
        let comment = try await mine(req, workout: workout, user: user)
        let body = ((try? req.content.get(String.self, at: "body")) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        if let problem = WorkoutComments.check(body) {
            return try await renderEdit(req, workout: workout, comment: comment, body: body, errors: ["body": problem])
        }
        comment.body = body
        comment.updatedAt = req.now
        try await comment.save(on: req.db)
        req.flash(.success, t("Comment updated."))
        return req.redirect(to: SiteURL.workout(try workout.requireID()).path + "#comment-" + SiteURL.id(try comment.requireID()))
    }

    func delete(req: Request) async throws -> Response {
        let (workout, user) = try await workout(req)
        let comment = try await mine(req, workout: workout, user: user)
        try await comment.delete(on: req.db)
        req.flash(.success, t("Comment deleted."))
        return req.redirect(to: SiteURL.workout(try workout.requireID()).path + "#comments")
    }
}
