import Foundation

extension SiteURL {
    static let newsFeed = SiteURL("feed")
    /// The feed from after `cursor` on: the next, older page.
    static func newsFeed(before cursor: FeedCursor) -> String { newsFeed.with([("before", cursor.text)]) }
    /// Who gave kudos to a workout; a POST gives or takes back the viewer's.
    static func workoutKudos(_ workout: UUID) -> SiteURL { SiteURL("workouts", id(workout), "kudos") }
}
