import FieldhouseKit
import Fluent
import Vapor

/// `/settings/privacy-zones`: add and remove the circles that hide places on one's workouts.
struct PrivacyZoneController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(WorkoutPath.privacyZoneSettings, use: page)
        routes.post(WorkoutPath.privacyZoneSettings, use: add)
        routes.post(WorkoutPath.deletePrivacyZone, use: delete)
    }

    struct Row: Encodable {
        let id: String
        let name: String
        let radius: String
        let place: String
    }

    struct Form: Content {
        var name: String?
        /// A place or town typed by name (`PlaceFinder`); its point wins over typed coordinates.
        var place: String?
        var lat: String?
        var lon: String?
        var radius: String?
    }

    struct Page: Encodable {
        let layout: Layout
        let zones: [Row]
        let form: Form
        let errors: FieldErrors
        let radii: [String]
        let full: Bool
        /// The person's own zones as circles on a map (SVG); empty without zones.
        var map = ""
    }

    private func render(_ req: Request, user: User, form: Form? = nil, errors: FieldErrors = [:]) async throws -> Response {
        let zones = try await SavedPrivacyZone.query(on: req.db).filter(\.$user.$id == user.requireID()).sort(\.$createdAt).all()
        let home = user.homeLat.flatMap { lat in user.homeLon.map { (lat, $0) } }
        let page = Page(
            layout: req.layout(title: t("Privacy zones")),
            zones: try zones.map {
                Row(
                    id: try $0.requireID().uuidString.lowercased(), name: $0.name, radius: "\(Int($0.radius)) m",
                    place: Format.coordinates(latitude: $0.latitude, longitude: $0.longitude))
            },
            form: form
                ?? Form(
                    name: zones.isEmpty ? "Home" : "", place: nil, lat: home.map { Format.coordinate($0.0, decimals: 5) },
                    lon: home.map { Format.coordinate($0.1, decimals: 5) },
                    radius: "500"),
            errors: errors, radii: ["200", "300", "500", "750", "1000", "1500", "2000"], full: zones.count >= SavedPrivacyZone.maxPerPerson,
            // Only ever on this page, which is its owner's: the circles say where they live.
            map: SVGMap(
                markers: [], tiles: req.application.mapTiles,
                circles: zones.map { SVGMap.Circle(centre: Coordinate(latitude: $0.latitude, longitude: $0.longitude), metres: $0.radius, title: $0.name) },
                label: tn("Map of your privacy zone", "Map of your {count} privacy zones", zones.count)
            ).svg)
        return try await req.view.render("accounts/settings_privacy_zones", page).encodeResponse(status: errors.isEmpty ? .ok : .unprocessableEntity, for: req)
    }

    func page(req: Request) async throws -> Response {
        try await render(req, user: try req.requireUser())
    }

    func add(req: Request) async throws -> Response {
        let user = try req.requireUser()
        var form = try req.content.decode(Form.self)
        var errors: FieldErrors = [:]
        if let typed = form.place, !typed.trimmingCharacters(in: .whitespaces).isEmpty {
            if let place = try await PlaceFinder.resolve(typed, home: user.homePlace, from: req.application.features, on: req.db) {
                (form.place, form.lat, form.lon) = (place.label, FormNumber.text(place.latitude), FormNumber.text(place.longitude))
            } else {
                errors["place"] = t("No place called “{place}” was found. Try a town's name, or enter the coordinates.", typed)
            }
        }
        let name = AccountRules.collapseWhitespace(form.name ?? "")
        if name.isEmpty { errors["name"] = t("Name the place, e.g. Home") } else if name.count > 60 { errors["name"] = t("Keep the name to 60 characters") }
        var unread: FieldErrors = [:]
        let lat = FormNumber.read(form.lat, in: -90...90, field: "lat", message: "", errors: &unread)
        let lon = FormNumber.read(form.lon, in: -180...180, field: "lon", message: "", errors: &unread)
        let centre = lat.flatMap { la in lon.map { Coordinate(latitude: la, longitude: $0) } }
        if errors["place"] == nil, centre?.isValid != true {
            errors["lat"] = t(
                "Type a place or a town above, or enter a latitude from −90 to 90 and a longitude from −180 to 180 (“Use where I am now” fills them in where your browser allows it)"
            )
        }
        let radius = Double(form.radius ?? "")
        if radius.map({ !PrivacyZone.radii.contains($0) }) ?? true { errors["radius"] = t("Choose a radius from 200 m to 2 km") }
        let count = try await SavedPrivacyZone.query(on: req.db).filter(\.$user.$id == user.requireID()).count()
        if count >= SavedPrivacyZone.maxPerPerson {
            errors["name"] = tn(
                "You have {count} zone already; remove one first", "You have {count} zones already; remove one first", SavedPrivacyZone.maxPerPerson)
        }
        guard errors.isEmpty, let centre, let radius else { return try await render(req, user: user, form: form, errors: errors) }
        let userID = try user.requireID(), now = req.now
        try await req.db.inTransaction { db in
            try await SavedPrivacyZone(user: userID, name: name, centre: centre, radius: radius).create(on: db)
            try await SharedPartJob.enqueue(for: userID, now: now, on: db)
        }
        req.flash(.success, t("Added the zone “{name}”. Points inside it are now hidden from everyone else on all your workouts.", name))
        return req.redirect(to: .privacyZoneSettings)
    }

    func delete(req: Request) async throws -> Response {
        let user = try req.requireUser()
        guard let id = req.parameters.get("id", as: UUID.self),
            let zone = try await SavedPrivacyZone.query(on: req.db).filter(\.$id == id).filter(\.$user.$id == user.requireID()).first()
        else {
            throw Abort(.notFound)
        }
        let userID = try user.requireID(), now = req.now
        try await req.db.inTransaction { db in
            try await zone.delete(on: db)
            try await SharedPartJob.enqueue(for: userID, now: now, on: db)
        }
        req.flash(.success, t("Removed the zone “{name}”.", zone.name))
        return req.redirect(to: .privacyZoneSettings)
    }
}
