import SQLKit
import FieldhouseKit
import Fluent
import Foundation

/// One person's kudos for one workout: at most one each (a unique pair), gone with either.
final class Kudos: Model, @unchecked Sendable {
    static let schema = "kudos"

    @ID(key: .id) var id: UUID?
    @Parent(key: "workout_id") var workout: Workout
    @Parent(key: "giver_id") var giver: User
    @Timestamp(key: "created_at", on: .create) var createdAt: Date?

    init() {}

    init(workout: UUID, giver: UUID) {
        self.$workout.id = workout
        self.$giver.id = giver
    }
}

extension Kudos {
    /// One unread note per workout, rewritten as kudos come in.
    static func tellOwner(of workout: Workout, giver: User, today: CalendarDate, on db: any Database) async throws {
        let workoutID = try workout.requireID()
        guard let owner = try await User.find(workout.$user.id, on: db),
            try await PersonAccess.reach(owner, from: giver, today: today, on: db) == .allowed
        else { return }
        let ownersView = try await Relations.load(viewer: owner, people: [giver.requireID()], today: today, on: db).relation(to: giver)
        let known = PersonAccess.knownName(of: giver, ownersView) != nil
        let count = try await Kudos.query(on: db).filter(\.$workout.$id == workoutID).count()
        let others = count - 1
        // A function, called where the text is used: `Notification.send` reads it in its recipient's language.
        func text() -> String {
            let name = known ? giver.displayName : t("Someone")
            return others <= 0
                ? t("{name} gave kudos to {workout}", name, workout.name)
                : tn("{name} and {count} other gave kudos to {workout}", "{name} and {count} others gave kudos to {workout}", others, name, workout.name)
        }
        let link = SiteURL.workoutKudos(workoutID).path
        if let unread = try await Notification.query(on: db).filter(\.$recipient.$id == workout.$user.id)
            .filter(\.$kind == Notification.Kind.kudos.rawValue).filter(\.$link == link).filter(\.$read == false).first()
        {
            unread.text = try await Notification.text(for: workout.$user.id, on: db) { text() }
            unread.$actor.id = try known ? giver.requireID() : nil
            try await unread.update(on: db)
        } else {
            try await Notification.send(to: [workout.$user.id], from: known ? giver.requireID() : nil, kind: .kudos, text: text(), link: link, on: db)
        }
    }
}
