import Fluent
import SQLKit
import Vapor

/// Teams and leagues: members and roles, invitations and requests, league tables.
enum Teams: Feature {
    static var routePatterns: [String] { TeamPath.patterns }

    static func boot(_ app: Application) throws {
        try app.register(collection: TeamController())
        try app.register(collection: MembershipController())
        try app.register(collection: InviteController())
        try app.register(collection: EmailInviteController())
        try app.register(collection: LeagueController())
    }

    static var jobKinds: [JobKind] { [TeamEmailInviteJob.kind, TeamEmailInviteJob.sweep] }

    /// The grounds of public teams: only theirs show their exact place to people outside the team.
    static func knownPlaces(matching text: String, limit: Int, on db: any Database) async throws -> [PlaceMatch] {
        try await db.sql.select().column(SQLAlias(SQLColumn("place_name"), as: SQLIdentifier("name")))
            .column(SQLAlias(SQLColumn("name"), as: SQLIdentifier("team"))).columns("latitude", "longitude").from(Team.schema)
            .where("privacy", .equal, Team.Privacy.public.rawValue).where("latitude", .isNot, SQLLiteral.null).where("longitude", .isNot, SQLLiteral.null)
            .where(SQLLike.startsWith("place_name", text)).orderBy("place_name").limit(limit).all(decoding: TeamGround.self)
            .map { PlaceMatch(name: $0.name, detail: t("ground of {team}", $0.team), latitude: $0.latitude, longitude: $0.longitude) }
    }

    private struct TeamGround: Decodable {
        let name: String
        let team: String
        let latitude: Double
        let longitude: Double
    }

    static func seedDemo(_ app: Application) async throws -> [String] {
        let teams = try await DemoTeams.seed(app: app)
        return teams > 0 ? ["Added \(teams) demo teams with members, requests and leagues."] : []
    }

    static func seedBench(_ app: Application, options: BenchOptions) async throws -> [String] {
        guard options.teams > 0 else { return [] }
        try await BenchTeams.seed(count: options.teams, app: app)
        return ["Added \(options.teams) benchmark teams and the 25-member team bench-25."]
    }
}
