import FieldhouseKit
import Foundation

/// Games fills the card (`GameCard` itself is declared in Teams, whose page lists a team's games).
extension GameCard {
    /// One game as a card for `viewer`, showing its exact place only as its page would.
    init(_ row: MyGames.Row, viewer: UUID) {
        let status: String
        if row.isCancelled {
            status = t("Cancelled")
        } else if let mine = row.myStatus {
            status = row.is_sub == true ? t("Substitute") : mine.label
        } else {
            status = row.game == .team ? t("No answer yet") : ""
        }
        self.init(
            url: SiteURL.game(row.id).path, title: row.title, sport: Sport(rawValue: row.sport)?.label ?? row.sport,
            team: row.team_name,
            when: "\(GameTime.shortDay(row.starts_at, zone: row.time_zone)) · \(GameTime.range(row.starts_at, row.endsAt, zone: row.time_zone))",
            place: PlaceView(
                name: row.place_name, coordinate: row.coordinate, exact: row.canSeeExactPlace(viewer: viewer),
                hiddenNote: t("the exact place is shown once you're in")
            ).text,
            status: status,
            statusValue: row.isCancelled ? "cancelled" : row.myStatus?.rawValue ?? "none", cancelled: row.isCancelled
        )
    }
}
