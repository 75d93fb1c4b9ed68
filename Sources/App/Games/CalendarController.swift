import FieldhouseKit
import Fluent
import Vapor

/// Calendar feeds: `/calendar/{token}.ics` lists every game that concerns the token's owner, or,
/// with `?team=slug`, one of their teams' games. The token is the only key (calendar programs
/// send no cookies), so it is long, unguessable, replaceable from settings, and never stored: the
/// database holds its hash, and pages work it out again from the server key (`ServerSecret`).
struct CalendarController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(AccountPath.calendarFeed, use: feed).holdsSecret()
        routes.get(GamePath.calendarSettings, use: settingsPage)
        routes.post(GamePath.resetCalendar, use: reset)
    }

    func feed(req: Request) async throws -> Response {
        let file = req.parameters.get("file") ?? ""
        guard file.hasSuffix(".ics") else { throw Abort(.notFound) }
        let token = String(file.dropLast(4))
        guard token.count >= 20, token.count <= 100,
            let owner = try await User.query(on: req.db).filter(\.$calendarTokenHash == RandomToken.hash(token)).first()
        else {
            throw Abort(.notFound, reason: t("This calendar address is not valid any more. Copy the new one from your settings."))
        }
        let ownerID = try owner.requireID()
        var teamID: UUID?
        var name = "Fieldhouse: \(owner.displayName)"
        if let slug = req.query[String.self, at: "team"] {
            guard let team = try await Team.query(on: req.db).filter(\.$slug == slug.lowercased()).first(),
                try await Membership.query(on: req.db).filter(\.$team.$id == team.requireID()).filter(\.$user.$id == ownerID).first() != nil
            else { throw Abort(.notFound) }
            teamID = team.id
            name = "Fieldhouse: \(team.name)"
        }
        let rows = try await MyGames.load(
            for: ownerID, team: teamID, range: .feed(since: req.now.addingTimeInterval(-180 * 86_400), limit: 2000), now: req.now, on: req.db)
        let config = req.application.config
        let events = rows.map { row in
            // Someone still asking to join a protected game learns the place only once let in.
            let placeKnown = row.canSeeExactPlace(viewer: ownerID)
            var lines: [String] = []
            if let status = row.myStatus {
                lines.append(t("Your answer: {answer}", row.is_sub == true ? t("Substitute") : status.label))
            } else if row.game == .team {
                lines.append(t("You have not answered yet."))
            }
            if placeKnown, !row.description.isEmpty { lines.append(row.description) }
            lines.append(config.absolute(.game(row.id)))
            return ICalendar.Event(
                uid: "game-\(row.id.uuidString.lowercased())@fieldhouse", start: row.starts_at, durationMinutes: row.duration_minutes,
                summary: row.title, description: lines.joined(separator: "\n"),
                location: placeKnown ? row.place_name : nil,
                latitude: placeKnown ? row.latitude : nil, longitude: placeKnown ? row.longitude : nil,
                url: config.absolute(.game(row.id)), sequence: row.sequence, cancelled: row.isCancelled,
                lastModified: row.updated_at
            )
        }
        // The personal feed (not a team's) also carries what other features add: reminders, and
        // sessions coaches planned.
        var reminders: [ICalendar.Event] = []
        if teamID == nil {
            let format = Format(owner)
            for feature in req.application.features {
                reminders += try await feature.calendarEvents(for: ownerID, timeZone: owner.timeZone, format: format, now: req.now, on: req.db)
            }
        }
        let body = ICalendar(name: name, events: events + reminders).render()
        var headers = HTTPHeaders()
        headers.contentType = HTTPMediaType(type: "text", subType: "calendar", parameters: ["charset": "utf-8"])
        headers.replaceOrAdd(name: .cacheControl, value: "private, max-age=300")
        headers.replaceOrAdd(name: .contentDisposition, value: "inline; filename=\"fieldhouse.ics\"")
        return Response(status: .ok, headers: headers, body: .init(string: body))
    }

    struct TeamFeed: Encodable {
        let name: String
        let url: String
    }

    struct SettingsPage: Encodable {
        let layout: Layout
        let feedURL: String
        let teams: [TeamFeed]
    }

    func settingsPage(req: Request) async throws -> View {
        let user = try req.requireUser()
        let url = try await CalendarFeed.url(for: user, req: req)
        let teams = try await Membership.query(on: req.db).filter(\.$user.$id == user.requireID()).with(\.$team).all()
            .map(\.team).sorted { $0.name < $1.name }
        var feeds: [TeamFeed] = []
        for team in teams { feeds.append(TeamFeed(name: team.name, url: try await CalendarFeed.url(for: user, req: req, team: team.slug))) }
        return try await req.view.render(
            "accounts/settings_calendar",
            SettingsPage(layout: req.layout(title: t("Calendar"), section: .settings), feedURL: url, teams: feeds))
    }

    func reset(req: Request) async throws -> Response {
        let user = try req.requireUser()
        user.calendarGeneration += 1
        try await user.update(on: req.db)
        _ = try await CalendarFeed.url(for: user, req: req)
        req.flash(.success, t("Your calendar has a new address. The old one has stopped working; subscribe again with the new one."))
        return req.redirect(to: .calendarSettings)
    }
}
