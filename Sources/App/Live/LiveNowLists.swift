import FieldhouseKit
import Fluent
import Vapor

/// Who is live now, for the pages of the features below Live: a team's members on its page, a
/// coach's athletes on the dashboard. Each recording is listed only to viewers its share allows.
extension Live: TeamCompanion, SquadCompanion {
    static func liveNow(in team: Team, members: [UUID], viewer: User, now: Date, on db: any Database) async throws -> [LiveNowCard] {
        try await cards(of: members, viewer: viewer, now: now, on: db)
    }

    static func liveNow(of athletes: [UUID], coach: User, now: Date, on db: any Database) async throws -> [LiveNowCard] {
        try await cards(of: athletes, viewer: coach, now: now, on: db)
    }

    private static func cards(of owners: [UUID], viewer: User, now: Date, on db: any Database) async throws -> [LiveNowCard] {
        let others = owners.filter { $0 != viewer.id }
        guard !others.isEmpty else { return [] }
        let since = Int64((now.timeIntervalSince1970 - LiveAccess.staleAfter) * 1000)
        let shares = try await LiveShare.query(on: db).filter(\.$user.$id ~~ others)
            .join(Workout.self, on: \LiveShare.$workout.$id == \Workout.$id)
            .filter(Workout.self, \.$endMS == nil).filter(Workout.self, \.$startMS > since)
            .with(\.$workout).with(\.$user).all()
        let today = LocalTime.utcDay(of: now)
        var cards: [LiveNowCard] = []
        for share in shares where try await LiveAccess.allows(share, owner: share.user, viewer: viewer, today: today, on: db) {
            // No start time: when someone left home is what their privacy zones keep from others.
            let sport = WorkoutSport(rawValue: share.workout.sport)?.label ?? share.workout.sport
            cards.append(LiveNowCard(name: share.user.displayName, sport: sport, url: SiteURL.live(try share.workout.requireID()).path))
        }
        return cards.sorted { $0.name < $1.name }
    }
}
