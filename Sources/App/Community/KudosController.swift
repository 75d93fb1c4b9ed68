import FieldhouseKit
import Fluent
import SQLKit
import Vapor

/// Kudos on a workout: given once, for good, by anyone who may see it but its owner, and the list of
/// who gave them. The owner hears once per workout until they read it: later kudos update that
/// note ("Kai and 3 others gave kudos to Harbour loop") instead of adding more. Kudos cannot be
/// taken back, so pressing again and again sends nothing more. A child hears only of kudos from
/// people they follow or share a team with, and a giver the owner may not know is "Someone".
struct KudosController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.post(CommunityPath.workoutKudos, use: toggle)
        routes.get(CommunityPath.workoutKudos, use: list)
    }

    struct ToggleForm: Content {
        /// The page the button was on, to come back to.
        var next: String?
        /// The feed entry the button was in ("workout:<id>"): the page comes back scrolled to it.
        var entry: String?
    }

    /// What a script that gave kudos in place reads back.
    struct Given: Content {
        let given: Bool
        let kudos: Int
        let text: String
    }

    func toggle(req: Request) async throws -> Response {
        let user = try req.requireUser()
        let access = try await WorkoutAccess.load(req, id: req.parameters.get("id") ?? "")
        let workout = access.workout
        let form = try req.content.decode(ToggleForm.self)
        let workoutPath = SiteURL.workout(try workout.requireID()).path
        var back = SiteURL.safeNext(form.next ?? workoutPath)
        if let entry = form.entry, entry.count <= 80, !entry.isEmpty,
            entry.unicodeScalars.allSatisfy({ CharacterSet.alphanumerics.contains($0) && $0.isASCII || $0 == ":" || $0 == "-" }), !back.contains("#")
        {
            back += "#" + entry
        }
        let userID = try user.requireID(), workoutID = try workout.requireID()
        guard workout.$user.id != userID else {
            throw Abort(.unprocessableEntity, reason: t("Kudos are for other people's workouts."))
        }
        let today = req.clock.today
        try await req.db.inTransaction { db in
            guard try await Kudos.query(on: db).filter(\.$workout.$id == workoutID).filter(\.$giver.$id == userID).first() == nil else { return }
            do {
                try await Kudos(workout: workoutID, giver: userID).create(on: db)
            } catch let error as any DatabaseError where error.isConstraintFailure {
                return // a second tab gave them a moment ago
            }
            try await Kudos.tellOwner(of: workout, giver: user, today: today, on: db)
        }
        if req.headers.accept.mediaTypes.contains(.json) {
            let count = try await Kudos.query(on: req.db).filter(\.$workout.$id == workoutID).count()
            return try await Given(given: true, kudos: count, text: tn("{count} kudos", "{count} kudos", count)).encodeResponse(for: req)
        }
        return req.redirect(to: back)
    }

    struct ListPage: Encodable {
        let layout: Layout
        let workoutName: String
        let workoutURL: String
        let people: [PersonCard]
        /// Givers the viewer may not know of: counted, not named.
        let unnamed: Int
    }

    func list(req: Request) async throws -> View {
        let access = try await WorkoutAccess.load(req, id: req.parameters.get("id") ?? "")
        let workoutID = try access.workout.requireID()
        let givers = try await Kudos.query(on: req.db).filter(\.$workout.$id == workoutID).sort(\.$createdAt, .descending).with(\.$giver).all()
            .map(\.giver)
        let cards = try await PersonCard.list(givers, viewer: req.currentUser, today: req.clock.today, on: req.db)
        return try await req.view.render(
            "community/kudos",
            ListPage(
                layout: req.layout(title: t("Kudos for {workout}", access.workout.name)), workoutName: access.workout.name,
                workoutURL: SiteURL.workout(workoutID).path, people: cards, unnamed: givers.count - cards.count))
    }
}
