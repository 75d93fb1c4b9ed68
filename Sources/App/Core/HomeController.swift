import Fluent
import SQLKit
import Vapor

/// `/`: a landing page for visitors, a dashboard for people who are signed in.
struct HomeController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(use: home)
    }

    struct LandingPage: Encodable {
        let layout: Layout
    }

    struct DashboardPage: Encodable {
        let layout: Layout
        let firstName: String
        let profileIncomplete: Bool
        let followRequests: Int
        let friends: Int
        let followers: Int
        let following: Int
        let newFollowers: [PersonCard]
        let suggestions: [PersonCard]
        let games: [MyGamesController.Card]
    }

    func home(req: Request) async throws -> View {
        guard let user = req.currentUser else {
            return try await req.view.render("home/landing", LandingPage(layout: req.layout(title: "Fieldhouse: amateur sport, together")))
        }
        let userID = try user.requireID()
        let incoming = try await FollowEdge.all(on: req.db) { $0.where("followee_id", .equal, userID).orderBy("created_at", .descending) }
        let outgoing = try await FollowEdge.all(on: req.db) { $0.where("follower_id", .equal, userID) }
        let iFollow = Set(outgoing.filter { $0.status == .accepted }.map(\.followee))
        let connected = Set(outgoing.map(\.followee)).union([userID])
        let followers = incoming.filter { $0.status == .accepted }

        let recentIDs = followers.prefix(5).map(\.follower)
        // Newest follower first, as the follows were sorted.
        let recent = try await PersonLoader.load(ids: Array(recentIDs), on: req.db)
        // Suggestions: public profiles the person does not follow yet, newest first.
        let suggestions = try await PersonLoader.select(on: req.db) {
            $0.where("visibility", .equal, User.Visibility.public.rawValue)
                .where("id", .notIn, Array(connected))
                .orderBy("created_at", .descending).limit(6)
        }

        let page = DashboardPage(
            layout: req.layout(title: "Home", section: "home"),
            firstName: String(user.displayName.split(separator: " ").first ?? Substring(user.displayName)),
            profileIncomplete: user.heightCm == nil || user.weightKg == nil,
            followRequests: incoming.filter { $0.status == .pending }.count,
            friends: followers.filter { iFollow.contains($0.follower) }.count,
            followers: followers.count,
            following: iFollow.count,
            newFollowers: try await PersonCard.list(recent, viewer: user, on: req.db),
            suggestions: try await PersonCard.list(suggestions, viewer: user, on: req.db),
            games: try await MyGames.load(for: userID, range: .upcoming(limit: 4), on: req.db).prefix(3).map(MyGamesController.card)
        )
        return try await req.view.render("home/dashboard", page)
    }
}
