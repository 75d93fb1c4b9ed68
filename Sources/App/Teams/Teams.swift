import Vapor

/// Teams and leagues: members and roles, invitations and requests, league tables.
enum Teams: Feature {
    static func boot(_ app: Application) throws {
        try app.register(collection: TeamController())
        try app.register(collection: MembershipController())
        try app.register(collection: InviteController())
        try app.register(collection: LeagueController())
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
