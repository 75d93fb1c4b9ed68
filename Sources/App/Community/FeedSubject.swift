import FieldhouseKit
import Fluent
import SQLKit
import Vapor

/// Something in the feed that people respond to (a gift, a comment): a workout, a plan or a badge,
/// named "<kind>:<id>", as the viewer may see it.
struct FeedSubject {
    let key: String
    let owner: User
    /// The workout's name or the plan's words as they are; nil for a badge.
    private let name: String?
    /// The badge, named in the language of whoever reads the title.
    private let badge: BadgeKind?
    let url: String

    /// "Harbour loop", "the badge “7-day streak”": read when shown, so a notification carries it in
    /// its recipient's language.
    var title: String {
        if let badge { return t("the badge “{title}”", badge.title) }
        return name ?? ""
    }

    init(key: String, owner: User, title: String, url: String) {
        self.key = key
        self.owner = owner
        self.name = title
        self.badge = nil
        self.url = url
    }

    init(key: String, owner: User, badge: BadgeKind, url: String) {
        self.key = key
        self.owner = owner
        self.name = nil
        self.badge = badge
        self.url = url
    }

    /// The subject named by `text`, when its kind is one of `kinds` and the viewer may see it; 404
    /// otherwise (a subject that does not exist and one the viewer may not see look the same).
    static func resolve(
        _ text: String?, viewer: User, kinds: Set<String>, today: CalendarDate, on db: any Database
    ) async throws -> FeedSubject {
        let parts = (text ?? "").split(separator: ":", maxSplits: 1).map(String.init)
        guard parts.count == 2, kinds.contains(parts[0]), let id = UUID(uuidString: parts[1]) else { throw Abort(.notFound) }
        let key = "\(parts[0]):\(SiteURL.id(id))"
        let viewerID = try viewer.requireID()
        switch parts[0] {
        case "workout":
            guard let workout = try await Workout.find(id, on: db), workout.endMS != nil,
                try await WorkoutAccess.canView(workout, viewer: viewer, today: today, on: db),
                let owner = try await User.find(workout.$user.id, on: db)
            else { throw Abort(.notFound) }
            return FeedSubject(key: key, owner: owner, title: workout.name, url: SiteURL.workout(id).path)
        case "badge":
            guard let badge = try await Badge.find(id, on: db), let kind = BadgeKind(rawValue: badge.kind),
                let owner = try await User.find(badge.$owner.id, on: db)
            else { throw Abort(.notFound) }
            // Others see shared badges, and only as the owner's accepted followers (as in the feed).
            let follows =
                try await Follow.query(on: db).filter(\.$follower.$id == viewerID).filter(\.$followee.$id == badge.$owner.id)
                .filter(\.$status == .accepted).first() != nil
            guard (badge.shared && follows) || owner.id == viewerID else { throw Abort(.notFound) }
            return FeedSubject(key: key, owner: owner, badge: kind, url: SiteURL.person(username: owner.username).path)
        case "plan":
            guard let plan = try await PlanAccess.find(id, viewer: viewerID, on: db) else { throw Abort(.notFound) }
            return FeedSubject(key: key, owner: plan.poster, title: "“\(Format.excerpt(plan.text))”", url: SiteURL.plan(id).path)
        default:
            throw Abort(.notFound)
        }
    }
}
