import Fluent
import SQLKit
import Vapor

/// `/challenges` (the inbox), `/challenges/public` and `/challenges/scoreboard`.
struct InboxController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(ChallengePath.challenges, use: inbox)
        routes.get(ChallengePath.publicChallenges, use: publicList)
        routes.get(ChallengePath.scoreboard, use: scoreboard)
    }

    struct Section: Encodable {
        let key: String
        let title: String
        let empty: String
        let items: [ChallengeInbox.Item]
        let moreURL: String?
        let count: Int
        /// Shown only as a link to its own page.
        var linkOnly = false
    }

    struct InboxPage: Encodable {
        let layout: Layout
        let sections: [Section]
        let single: Bool
        let pager: Pager?
    }

    static let perSection = 6

    func inbox(req: Request) async throws -> View {
        let viewer = try req.requireUser()
        let flag = req.application.config.challengeFlagMetres
        // `?list=sent` shows one list in full, with pages; otherwise a few of each.
        if let raw = req.query[String.self, at: "list"], let list = ChallengeInbox.List(rawValue: raw) {
            var pager = Pager(req: req, perPage: 24)
            let rows = try await ChallengeInbox.items(
                list, viewer: viewer, limit: pager.fetchLimit, offset: pager.offset, flagMetres: flag, now: req.now, on: req.db)
            let items = pager.finish(rows, at: .challenges, query: [("list", list.rawValue)])
            let section = Section(key: list.rawValue, title: list.title, empty: list.empty, items: items, moreURL: nil, count: 0)
            return try await req.view.render(
                "challenges/inbox",
                InboxPage(
                    layout: req.layout(title: list.title, section: .challenges), sections: [section], single: true, pager: pager))
        }
        var sections: [Section] = []
        // Finished challenges are history: linked from the inbox rather than searched for on every
        // visit (it is the one list that has to look at all of a person's challenges).
        for list in [ChallengeInbox.List.todo, .judge, .sent] {
            let rows = try await ChallengeInbox.items(list, viewer: viewer, limit: Self.perSection + 1, offset: 0, flagMetres: flag, now: req.now, on: req.db)
            sections.append(
                Section(
                    key: list.rawValue, title: list.title, empty: list.empty, items: Array(rows.prefix(Self.perSection)),
                    moreURL: rows.count > Self.perSection ? SiteURL.challenges.with([("list", list.rawValue)]) : nil,
                    count: list == .judge ? req.storage[HeaderCountsKey.self]?["toJudge"] ?? 0 : 0
                ))
        }
        sections.append(
            Section(
                key: "finished", title: ChallengeInbox.List.finished.title, empty: "", items: [],
                moreURL: SiteURL.challenges.with([("list", "finished")]), count: 0, linkOnly: true))
        return try await req.view.render(
            "challenges/inbox",
            InboxPage(
                layout: req.layout(title: t("Challenges"), section: .challenges), sections: sections, single: false, pager: nil))
    }

    struct PublicPage: Encodable {
        let layout: Layout
        let items: [ChallengeInbox.Item]
        let pager: Pager
    }

    func publicList(req: Request) async throws -> View {
        let viewer = try req.requireUser()
        var pager = Pager(req: req, perPage: 24)
        let rows = try await ChallengeInbox.items(
            .public, viewer: viewer, limit: pager.fetchLimit, offset: pager.offset,
            flagMetres: req.application.config.challengeFlagMetres, now: req.now, on: req.db)
        let items = pager.finish(rows, at: .publicChallenges, query: [])
        return try await req.view.render(
            "challenges/public",
            PublicPage(
                layout: req.layout(title: t("Public challenges"), section: .challenges), items: items, pager: pager))
    }

    struct ScoreboardPage: Encodable {
        let layout: Layout
        let scope: String
        let period: String
        let entries: [Scoreboard.Entry]
        let heading: String
    }

    func scoreboard(req: Request) async throws -> View {
        let viewer = try req.requireUser()
        let scope = req.query[String.self, at: "scope"].flatMap(Scoreboard.Scope.init) ?? .friends
        let period = req.query[String.self, at: "period"].flatMap(Scoreboard.Period.init) ?? .week
        let entries = try await Scoreboard.entries(scope: scope, period: period, viewer: viewer, now: req.now, on: req.db)
        let heading =
            switch (scope, period) {
            case (.friends, .week): t("You and your friends, this week")
            case (.friends, .all): t("You and your friends, all time")
            case (.public, .week): t("Everyone, public challenges, this week")
            case (.public, .all): t("Everyone, public challenges, all time")
            }
        return try await req.view.render(
            "challenges/scoreboard",
            ScoreboardPage(
                layout: req.layout(title: t("Challenge scoreboard"), section: .challenges),
                scope: scope.rawValue, period: period.rawValue, entries: entries, heading: heading))
    }
}
