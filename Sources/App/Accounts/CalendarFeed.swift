import Fluent
import Vapor

/// A person's calendar feed address. Its secret is derived from the server key, the person and a
/// generation number (reset by "Make a new address"), so the database keeps only its hash. The
/// token belongs to the account; the feed itself (games, and what other features add through
/// `Feature.calendarEvents`) is served by Games.
enum CalendarFeed {
    /// The person's feed URL. Its hash is stored on first use, and again when the server key has
    /// changed, so the address shown is always the one that works.
    /// `team` (a slug) narrows the feed to that team's games.
    static func url(for user: User, req: Request, team: String? = nil) async throws -> String {
        let token = req.application.serverSecret.token(for: "calendar", try user.requireID().uuidString, String(user.calendarGeneration))
        let hash = RandomToken.hash(token)
        if user.calendarTokenHash != hash {
            // This one column only: on a page (a GET) the person comes from `signInCache`, and
            // saving the whole model would write back every column as it was kept.
            try await User.query(on: req.db).filter(\.$id == user.requireID()).set(\.$calendarTokenHash, to: hash).update()
            user.calendarTokenHash = hash
            try await req.personChanged(user.requireID())
        }
        return req.application.config.absolute(.calendarFeed(token: token), query: [("team", team)])
    }
}
