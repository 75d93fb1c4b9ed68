import FieldhouseKit
import Fluent
import SQLKit
import Vapor

/// `/friends/nearby`: friends (people one follows who follow back) who chose to share roughly where
/// they are, with the distance between the two areas to the half kilometre. Off by default; only
/// people 16 and over may turn it on; an area is about 1 km across (`NearbyCell`), never touches
/// one of the person's privacy zones, may be moved a few times a share, and lapses after three hours. Distances are shown
/// only to people sharing an area themselves.
struct NearbyController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(CommunityPath.nearbyFriends, use: page)
        routes.post(CommunityPath.nearbySettings, use: settings)
        routes.post(CommunityPath.nearbyHere, use: here)
        routes.post(CommunityPath.nearbyStop, use: stop)
    }

    struct Friend: Encodable {
        let name: String
        let url: String
        let distance: String
    }

    struct Page: Encodable {
        let layout: Layout
        let canOptIn: Bool
        let enabled: Bool
        let sharingUntil: String?
        let friends: [Friend]
        let latitude: String
        let longitude: String
        let error: String?
        let settingsAction: String
        let hereAction: String
        let stopAction: String
        let back: String
    }

    private func share(of userID: UUID, on db: any Database) async throws -> NearbyShare? {
        try await NearbyShare.query(on: db).filter(\.$user.$id == userID).first()
    }

    private func render(_ req: Request, latitude: String = "", longitude: String = "", error: String? = nil, status: HTTPStatus = .ok) async throws
        -> Response
    {
        let user = try req.requireUser()
        let userID = try user.requireID()
        let now = req.now
        let mine = try await share(of: userID, on: req.db)
        let format = Format(user)
        var friends: [Friend] = []
        let canOptIn = !user.isUnder16(on: req.clock.today)
        if canOptIn, let mine, mine.enabled, let until = mine.until, until > now, let lat = mine.cellLat, let lon = mine.cellLon {
            struct Row: Decodable {
                let username: String
                let display_name: String
                let birth_date: String?
                let cell_lat: Double
                let cell_lon: Double
            }
            let rows = try await req.db.sql.raw(
                """
                SELECT u.username, u.display_name, u.birth_date, s.cell_lat, s.cell_lon
                FROM nearby_shares s JOIN users u ON u.id = s.user_id
                JOIN follows a ON a.follower_id = \(bind: userID) AND a.followee_id = s.user_id AND a.status = 'accepted'
                JOIN follows b ON b.follower_id = s.user_id AND b.followee_id = \(bind: userID) AND b.status = 'accepted'
                WHERE s.enabled = \(bind: true) AND s.until > \(bind: now) AND s.cell_lat IS NOT NULL AND s.cell_lon IS NOT NULL
                """
            ).all(decoding: Row.self)
            let here = Coordinate(latitude: lat, longitude: lon)
            let today = req.clock.today
            friends =
                rows
                // Sharing is for 16 and over, whatever a row says.
                .filter { row in row.birth_date.flatMap(CalendarDate.init(iso:)).map { $0.age(on: today) >= 16 } ?? false }
                .map { row in (row, Geo.distance(here, Coordinate(latitude: row.cell_lat, longitude: row.cell_lon))) }
                .sorted { ($0.1, $0.0.display_name) < ($1.1, $1.0.display_name) }
                .map { row, metres in
                    let km = NearbyCell.roundedKilometres(metres)
                    let distance = km < 1 ? t("within about 1 km") : t("about {distance}", Format.proximity(km * 1000, imperial: format.imperial))
                    return Friend(name: row.display_name, url: SiteURL.person(username: row.username).path, distance: distance)
                }
        }
        let sharingUntil = mine.flatMap { share in share.enabled ? share.until.flatMap { $0 > now ? format.shortWhen($0) : nil } : nil }
        return try await req.view.render(
            "community/nearby",
            Page(
                layout: req.layout(title: t("Friends nearby"), section: .people, hasForms: true), canOptIn: canOptIn, enabled: mine?.enabled ?? false,
                sharingUntil: sharingUntil, friends: friends, latitude: latitude, longitude: longitude, error: error,
                settingsAction: SiteURL.nearbySettings.path, hereAction: SiteURL.nearbyHere.path, stopAction: SiteURL.nearbyStop.path,
                back: SiteURL.friends.path)
        ).encodeResponse(status: status, for: req)
    }

    func page(req: Request) async throws -> Response {
        try await render(req)
    }

    struct SettingsForm: Content { var enabled: String? }

    func settings(req: Request) async throws -> Response {
        let user = try req.requireUser()
        let userID = try user.requireID()
        let on = try req.content.decode(SettingsForm.self).enabled == "on"
        guard !on || !user.isUnder16(on: req.clock.today) else {
            throw Abort(.forbidden, reason: t("Sharing where you are is for people 16 and over."))
        }
        let share = try await share(of: userID, on: req.db) ?? NearbyShare()
        share.$user.id = userID
        if share.id == nil { share.moves = 0 }
        share.enabled = on
        if !on {
            share.cellLat = nil
            share.cellLon = nil
            share.until = nil
        }
        try await share.save(on: req.db)
        req.flash(.success, on ? t("On. Press “I'm here now” to share your area for three hours.") : t("Off. Your area is no longer shared."))
        return req.redirect(to: .nearbyFriends)
    }

    struct HereForm: Content {
        var latitude: String?
        var longitude: String?
    }

    func here(req: Request) async throws -> Response {
        let user = try req.requireUser()
        let userID = try user.requireID()
        guard !user.isUnder16(on: req.clock.today), let share = try await share(of: userID, on: req.db), share.enabled else {
            throw Abort(.forbidden, reason: t("Turn on sharing first (for people 16 and over)."))
        }
        let form = try req.content.decode(HereForm.self)
        let lat = FormNumber.coordinate(form.latitude, range: -90...90, axis: "latitude")
        let lon = FormNumber.coordinate(form.longitude, range: -180...180, axis: "longitude")
        guard let latitude = lat.value, let longitude = lon.value else {
            return try await render(
                req, latitude: form.latitude ?? "", longitude: form.longitude ?? "",
                error: lat.error ?? lon.error ?? t("Press “Use where I am now”, or enter a latitude and a longitude"), status: .unprocessableEntity)
        }
        let cell = NearbyCell.snap(Coordinate(latitude: latitude, longitude: longitude))
        // The whole cell must stay clear of the person's privacy zones, not just the point.
        if try await SavedPrivacyZone.zones(of: userID, on: req.db).contains(where: { Geo.distance($0.centre, cell) < $0.radius + NearbyCell.reach }) {
            return try await render(
                req, latitude: form.latitude ?? "", longitude: form.longitude ?? "",
                error: t("That's too close to one of your privacy zones, so it isn't shared"), status: .unprocessableEntity)
        }
        let now = req.now
        // Counted and moved under a lock on the person's row: parallel moves cannot all pass the limit.
        let moved = try await req.db.inTransaction { db -> Bool in
            try await db.lockForCount(User.schema, id: userID)
            guard let share = try await NearbyShare.query(on: db).filter(\.$user.$id == userID).first() else { return false }
            if let since = share.movesSince, since > now.addingTimeInterval(-NearbyShare.lifetime) {
                guard share.moves < NearbyShare.movesPerShare else { return false }
                share.moves += 1
            } else {
                share.moves = 1
                share.movesSince = now
            }
            share.cellLat = cell.latitude
            share.cellLon = cell.longitude
            share.until = now.addingTimeInterval(NearbyShare.lifetime)
            try await share.save(on: db)
            return true
        }
        guard moved else {
            return try await render(
                req, latitude: form.latitude ?? "", longitude: form.longitude ?? "",
                error: tn(
                    "You've set your area {count} time in three hours; try again later",
                    "You've set your area {count} times in three hours; try again later",
                    NearbyShare.movesPerShare), status: .tooManyRequests)
        }
        req.flash(.success, t("Shared for three hours: friends who share too see roughly how far you are, never the exact place."))
        return req.redirect(to: .nearbyFriends)
    }

    func stop(req: Request) async throws -> Response {
        let user = try req.requireUser()
        if let share = try await share(of: user.requireID(), on: req.db) {
            share.cellLat = nil
            share.cellLon = nil
            share.until = nil
            try await share.save(on: req.db)
        }
        req.flash(.success, t("Your area is no longer shared."))
        return req.redirect(to: .nearbyFriends)
    }
}
