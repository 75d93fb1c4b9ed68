import Fluent
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
    }

    func home(req: Request) async throws -> View {
        guard let user = req.currentUser else {
            return try await req.view.render("home/landing", LandingPage(layout: req.layout(title: "Fieldhouse: amateur sport, together")))
        }
        let userID = try user.requireID()
        let incoming = try await Follow.query(on: req.db).filter(\.$followee.$id == userID).sort(\.$createdAt, .descending).all()
        let outgoing = try await Follow.query(on: req.db).filter(\.$follower.$id == userID).all()
        let iFollow = Set(outgoing.filter { $0.status == .accepted }.map { $0.$followee.id })
        let connected = Set(outgoing.map { $0.$followee.id }).union([userID])
        let followers = incoming.filter { $0.status == .accepted }

        let recentIDs = followers.prefix(5).map { $0.$follower.id }
        let recentUsers = recentIDs.isEmpty ? [] : try await User.query(on: req.db).filter(\.$id ~~ Array(recentIDs)).with(\.$sports).all()
        // Newest follower first, as the follows were sorted.
        let recent = recentIDs.compactMap { id in recentUsers.first { $0.id == id } }
        // Suggestions: public profiles the person does not follow yet, newest first.
        let suggestions = try await User.query(on: req.db)
            .filter(\.$visibility == .public)
            .filter(\.$id !~ Array(connected))
            .with(\.$sports)
            .sort(\.$createdAt, .descending).limit(6).all()

        let page = DashboardPage(
            layout: req.layout(title: "Home", section: "home"),
            firstName: String(user.displayName.split(separator: " ").first ?? Substring(user.displayName)),
            profileIncomplete: user.heightCm == nil || user.weightKg == nil,
            followRequests: incoming.filter { $0.status == .pending }.count,
            friends: followers.filter { iFollow.contains($0.$follower.id) }.count,
            followers: followers.count,
            following: iFollow.count,
            newFollowers: try await PersonCard.list(recent, viewer: user, on: req.db),
            suggestions: try await PersonCard.list(suggestions, viewer: user, on: req.db)
        )
        return try await req.view.render("home/dashboard", page)
    }
}
