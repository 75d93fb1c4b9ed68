import FieldhouseKit
import Fluent
import Vapor

/// `POST /workouts/{id}/comments` and editing or deleting one's own: the athlete and their coaches
/// talk under a workout. Only they see the comments, whoever else may see the workout; to anyone
/// else these routes are 404.
struct CommentController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        let comments = routes.grouped("workouts", ":id", "comments")
        comments.post(use: add)
        comments.get(":comment", "edit", use: editPage)
        comments.post(":comment", "edit", use: edit)
        comments.post(":comment", "delete", use: delete)
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

    private static func check(_ body: String) -> String? {
        if body.isEmpty { return t("Write something first.") }
        if body.count > WorkoutComment.maxLength {
            return t("Keep a comment to {max} characters; this one has {length}.", WorkoutComment.maxLength, body.count)
        }
        return nil
    }

    func add(req: Request) async throws -> Response {
        let (workout, user) = try await workout(req)
        let body = ((try? req.content.get(String.self, at: "body")) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        let link = SiteURL.workout(try workout.requireID()).path
        if let problem = Self.check(body) {
            req.flash(.error, problem)
            return req.redirect(to: link + "#comments")
        }
        let comment = WorkoutComment(workout: try workout.requireID(), author: try user.requireID(), body: body)
        try await comment.create(on: req.db)
        // The other side hears of it: the athlete when a coach writes, the coaches when the athlete does.
        let recipients = workout.$user.id == user.id ? try await AthleteAccess.coachIDs(of: workout.$user.id, on: req.db) : [workout.$user.id]
        try await Notification.send(
            to: recipients, from: user.id, kind: .workoutComment, text: t("{name} commented on “{workout}”.", user.displayName, workout.name),
            link: link + "#comments", on: req.db)
        req.flash(.success, t("Comment added."))
        return req.redirect(to: link + "#comment-" + SiteURL.id(try comment.requireID()))
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
        if let problem = Self.check(body) { return try await renderEdit(req, workout: workout, comment: comment, body: body, errors: ["body": problem]) }
        comment.body = body
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
