import Foundation

/// Every path Community serves, spelled once (see `RoutePattern`): its controllers register these
/// cases and its links are made from them.
enum CommunityPath: String, RoutePattern {
    case newsFeed = "/feed"
    case workoutKudos = "/workouts/:id/kudos"
    case newPlan = "/plans/new"
    case plan = "/plans/:id"
    /// The plan's conversation, served by Messages.
    case planConversation = "/plans/:id/messages"
    case planJoin = "/plans/:id/in"
    case cancelPlan = "/plans/:id/cancel"
    case leaderboard = "/leaderboard"
    case badges = "/badges"
    case newGift = "/gifts/new"
    case feedComments = "/comments"
    case deleteFeedComment = "/comments/:id/delete"
    case nearbyFriends = "/friends/nearby"
    case nearbySettings = "/friends/nearby/settings"
    case nearbyHere = "/friends/nearby/here"
    case nearbyStop = "/friends/nearby/stop"
}

extension SiteURL {
    static let newsFeed = SiteURL(CommunityPath.newsFeed)
    /// The feed from after `cursor` on: the next, older page.
    static func newsFeed(before cursor: FeedCursor) -> String { newsFeed.with([("before", cursor.text)]) }
    /// Who gave kudos to a workout; a POST gives or takes back the viewer's.
    static func workoutKudos(_ workout: UUID) -> SiteURL { SiteURL(CommunityPath.workoutKudos, id(workout)) }
}

extension SiteURL {
    static let newPlan = SiteURL(CommunityPath.newPlan)
    static func plan(_ plan: UUID) -> SiteURL { SiteURL(CommunityPath.plan, id(plan)) }
    static func planConversation(_ plan: UUID) -> SiteURL { SiteURL(CommunityPath.planConversation, id(plan)) }
    /// "I'm in" (POST).
    static func planJoin(_ plan: UUID) -> SiteURL { SiteURL(CommunityPath.planJoin, id(plan)) }
    /// The poster calls it off (POST).
    static func cancelPlan(_ plan: UUID) -> SiteURL { SiteURL(CommunityPath.cancelPlan, id(plan)) }
}

extension SiteURL {
    static let leaderboard = SiteURL(CommunityPath.leaderboard)
    static func leaderboard(scope: String, period: String, by measure: String) -> String {
        leaderboard.with([("scope", scope), ("period", period), ("by", measure)])
    }
}

extension SiteURL {
    /// The signed-in person's badges and gifts, and what every badge is for.
    static let badges = SiteURL(CommunityPath.badges)
    static let newGift = SiteURL(CommunityPath.newGift)
    /// The gift form for a feed entry ("workout:<id>", "badge:<id>").
    static func newGift(for subject: String) -> String { newGift.with([("for", subject)]) }
}

extension SiteURL {
    static let feedComments = SiteURL(CommunityPath.feedComments)
    /// The comments under a feed entry ("workout:<id>").
    /// Where an entry's comments are read: a workout's are on its page, in one thread with its coaches'.
    static func feedComments(on subject: String) -> String {
        if subject.hasPrefix("workout:"), let id = UUID(uuidString: String(subject.dropFirst("workout:".count))) {
            return workout(id).fragment("comments")
        }
        return feedComments.with([("on", subject)])
    }
    static func deleteFeedComment(_ comment: UUID) -> SiteURL { SiteURL(CommunityPath.deleteFeedComment, id(comment)) }
}

extension SiteURL {
    static let nearbyFriends = SiteURL(CommunityPath.nearbyFriends)
    static let nearbySettings = SiteURL(CommunityPath.nearbySettings)
    static let nearbyHere = SiteURL(CommunityPath.nearbyHere)
    static let nearbyStop = SiteURL(CommunityPath.nearbyStop)
}
