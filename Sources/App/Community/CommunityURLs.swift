import Foundation

extension SiteURL {
    static let newsFeed = SiteURL("feed")
    /// The feed from after `cursor` on: the next, older page.
    static func newsFeed(before cursor: FeedCursor) -> String { newsFeed.with([("before", cursor.text)]) }
    /// Who gave kudos to a workout; a POST gives or takes back the viewer's.
    static func workoutKudos(_ workout: UUID) -> SiteURL { SiteURL("workouts", id(workout), "kudos") }
}

extension SiteURL {
    static let newPlan = SiteURL("plans", "new")
    static func plan(_ plan: UUID) -> SiteURL { SiteURL("plans", id(plan)) }
    /// "I'm in" (POST).
    static func planJoin(_ plan: UUID) -> SiteURL { SiteURL("plans", id(plan), "in") }
    /// The poster calls it off (POST).
    static func cancelPlan(_ plan: UUID) -> SiteURL { SiteURL("plans", id(plan), "cancel") }
}

extension SiteURL {
    static let leaderboard = SiteURL("leaderboard")
    static func leaderboard(scope: String, period: String, by measure: String) -> String {
        leaderboard.with([("scope", scope), ("period", period), ("by", measure)])
    }
}

extension SiteURL {
    /// The signed-in person's badges and gifts, and what every badge is for.
    static let badges = SiteURL("badges")
    static let newGift = SiteURL("gifts", "new")
    /// The gift form for a feed entry ("workout:<id>", "badge:<id>").
    static func newGift(for subject: String) -> String { newGift.with([("for", subject)]) }
}

extension SiteURL {
    static let feedComments = SiteURL("comments")
    /// The comments under a feed entry ("workout:<id>").
    /// Where an entry's comments are read: a workout's are on its page, in one thread with its coaches'.
    static func feedComments(on subject: String) -> String {
        if subject.hasPrefix("workout:"), let id = UUID(uuidString: String(subject.dropFirst("workout:".count))) {
            return workout(id).fragment("comments")
        }
        return feedComments.with([("on", subject)])
    }
    static func deleteFeedComment(_ comment: UUID) -> SiteURL { SiteURL("comments", id(comment), "delete") }
}

extension SiteURL {
    static let nearbyFriends = SiteURL("friends", "nearby")
    static let nearbySettings = SiteURL("friends", "nearby", "settings")
    static let nearbyHere = SiteURL("friends", "nearby", "here")
    static let nearbyStop = SiteURL("friends", "nearby", "stop")
}
