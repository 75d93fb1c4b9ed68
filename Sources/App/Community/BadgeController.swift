import FieldhouseKit
import Fluent
import SQLKit
import Vapor

/// `/badges`: the signed-in person's badges, what every badge is for, and the gifts they got.
struct BadgeController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(CommunityPath.badges, use: page)
    }

    struct Item: Encodable {
        let symbol: String
        let title: String
        let rule: String
        let earned: String?
    }

    struct Received: Encodable {
        let symbol: String
        let label: String
        let from: String
        let fromURL: String?
        let note: String
        let when: String
    }

    struct Page: Encodable {
        let layout: Layout
        let badges: [Item]
        /// How many badges there are, earned or not.
        let badgeCount: Int
        let earnedCount: Int
        let gifts: [Received]
        let back: String
    }

    func page(req: Request) async throws -> View {
        let user = try req.requireUser()
        let userID = try user.requireID()
        let format = Format(user)
        let held = Dictionary(
            try await Badge.query(on: req.db).filter(\.$owner.$id == userID).all().map { ($0.kind, $0.earnedAt) }, uniquingKeysWith: { first, _ in first })
        let items = BadgeKind.allCases.map { kind in
            Item(symbol: kind.symbol, title: kind.title, rule: kind.rule, earned: held[kind.rawValue].map(format.when))
        }
        let gifts = try await Gift.query(on: req.db).filter(\.$recipient.$id == userID).sort(\.$createdAt, .descending).limit(100)
            .with(\.$sender).all()
        let visible = Set(try await PersonCard.list(gifts.map(\.sender), viewer: user, today: req.clock.today, on: req.db).map(\.username))
        let received = gifts.map { gift in
            let known = visible.contains(gift.sender.username)
            return Received(
                symbol: gift.sticker.symbol, label: gift.sticker.label, from: known ? gift.sender.displayName : t("Someone"),
                fromURL: known ? SiteURL.person(username: gift.sender.username).path : nil, note: gift.note,
                when: gift.createdAt.map(format.shortWhen) ?? "")
        }
        return try await req.view.render(
            "community/badges",
            Page(
                layout: req.layout(title: t("Badges and gifts"), section: .home),
                badges: items.sorted { ($0.earned != nil ? 0 : 1) < ($1.earned != nil ? 0 : 1) }, badgeCount: items.count, earnedCount: held.count,
                gifts: received,
                back: SiteURL.newsFeed.path))
    }
}
