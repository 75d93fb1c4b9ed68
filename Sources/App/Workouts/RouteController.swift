import FieldhouseKit
import Fluent
import Vapor

/// `/routes` (mine, and routes starting near a point), `/routes/{id}` (map, length, climbing,
/// elevation profile; its owner names and shares it), `/routes/{id}.gpx`, and keeping a workout's
/// path as a route.
struct RouteController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(WorkoutPath.routes, use: index)
        routes.get(WorkoutPath.route, use: show)
        routes.post(WorkoutPath.route, use: update)
        routes.post(WorkoutPath.deleteRoute, use: delete)
        routes.post(WorkoutPath.saveWorkoutAsRoute, use: saveWorkout)
    }

    struct Item: Encodable {
        let name: String
        let url: String
        let length: String
        let climb: String
        let distance: String?
        let visibility: String
    }

    struct IndexPage: Encodable {
        let layout: Layout
        let mine: [Item]
        let pager: Pager
        let near: [Item]
        let nearLabel: String?
        let latitude: String
        let longitude: String
        let radiusKm: String
        let radii: [Int]
        let error: String?
        let action: String
        let importURL: String
    }

    static let radii = [2, 5, 10, 25, 50]

    func index(req: Request) async throws -> Response {
        let viewer = req.currentUser
        let format = Format(viewer: viewer)
        func item(_ route: Route, metres: Double?, length: Double, climb: Double?) -> Item {
            Item(
                name: route.name, url: SiteURL.route(route.id!).path, length: format.distance(length), climb: format.elevation(climb),
                distance: metres.map { t("{distance} away", Format.proximity($0, imperial: format.imperial)) }, visibility: route.visibility.label)
        }
        var pager = Pager(req: req)
        var mine: [Item] = []
        if let viewerID = viewer?.id {
            let rows = try await Route.query(on: req.db).filter(\.$user.$id == viewerID).sort(\.$createdAt, .descending).sort(\.$id)
                .range(pager.offset..<(pager.offset + pager.fetchLimit)).all()
            mine = pager.finish(rows, at: .routes, query: []).map { item($0, metres: nil, length: $0.distance, climb: $0.climb) }
        }
        // "near=41.15,-8.61" (a link), or lat and lon (the form), else the person's home.
        let nearText = (req.query[String.self, at: "near"] ?? "").trimmingCharacters(in: .whitespaces)
        let near = nearText.isEmpty ? [] : nearText.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        let latText = (near.count == 2 ? near[0] : req.query[String.self, at: "lat"] ?? "").trimmingCharacters(in: .whitespaces)
        let lonText = (near.count == 2 ? near[1] : req.query[String.self, at: "lon"] ?? "").trimmingCharacters(in: .whitespaces)
        var error: String?
        var centre: Coordinate?
        var label: String?
        if near.count == 1 || near.count > 2 {
            error = t("Give a latitude and a longitude separated by a comma")
        } else if !latText.isEmpty || !lonText.isEmpty {
            let lat = FormNumber.coordinate(latText, range: -90...90, axis: "latitude")
            let lon = FormNumber.coordinate(lonText, range: -180...180, axis: "longitude")
            if let latitude = lat.value, let longitude = lon.value {
                centre = Coordinate(latitude: latitude, longitude: longitude)
                label = t("the point you gave")
            } else {
                error = lat.error ?? lon.error ?? t("Enter both latitude and longitude")
            }
        } else if let viewer, let lat = viewer.homeLat, let lon = viewer.homeLon {
            centre = Coordinate(latitude: lat, longitude: lon)
            label = t("your home area")
        }
        let radiusKm = req.query[Int.self, at: "radius_km"].flatMap { Self.radii.contains($0) ? $0 : nil } ?? 10
        var found: [Item] = []
        if let centre {
            found = try await RouteSearch.near(centre, radius: Double(radiusKm) * 1000, viewer: viewer?.id, today: req.clock.today, limit: 50, on: req.db)
                .map { item($0.route, metres: $0.metres, length: $0.length, climb: $0.climb) }
        }
        let page = IndexPage(
            layout: req.layout(title: t("Routes"), section: .workouts), mine: mine, pager: pager, near: found, nearLabel: label,
            latitude: latText, longitude: lonText, radiusKm: String(radiusKm), radii: Self.radii,
            error: error, action: SiteURL.routes.path, importURL: SiteURL.importWorkouts.path)
        return try await req.view.render("workouts/routes", page).encodeResponse(status: error == nil ? .ok : .badRequest, for: req)
    }

    struct ShowPage: Encodable {
        let layout: Layout
        let name: String
        let owner: String
        let ownerURL: String
        let length: String
        let climb: String
        let map: String
        let elevationChart: String
        let hiddenNote: Bool
        let gpxURL: String
        let isOwner: Bool
        let visibility: String
        let visibilityLabel: String
        let visibilities: [SelectOption]
        let action: String
        let deleteAction: String
        let back: String
        let error: String?
    }

    func show(req: Request) async throws -> Response {
        let raw = req.parameters.get("id") ?? ""
        if raw.hasSuffix(".gpx") { return try await gpx(req, access: RouteAccess.load(req, id: String(raw.dropLast(4)))) }
        return try await render(req, access: RouteAccess.load(req, id: raw))
    }

    private func render(_ req: Request, access: RouteAccess, error: String? = nil, status: HTTPStatus = .ok) async throws -> Response {
        let route = access.route
        guard let owner = try await User.find(route.$user.id, on: req.db) else { throw Abort(.notFound) }
        let format = Format(viewer: req.currentUser)
        let id = try route.requireID()
        var map = ""
        if let first = access.pieces.first?.first, let last = access.pieces.last?.last {
            map =
                SVGMap(
                    markers: [
                        .init(coordinate: first, symbol: String(t("Start").prefix(1)), title: t("Start"), primary: false),
                        .init(coordinate: last, symbol: String(t("Finish").prefix(1)), title: t("Finish"), primary: true),
                    ], tiles: req.application.mapTiles, paths: access.pieces, label: t("Map of the route {name}", route.name)
                ).svg
        }
        // The profile follows the whole route for its owner; others see the visible pieces one after another.
        var elevationChart = ""
        let shape = route.shape
        if !access.isTrimmed {
            let along = shape.cumulativeDistance
            if shape.elevations.contains(where: { $0 != nil }), let end = along.last, end > 0 {
                let shown = WorkoutDrawings.thin(seconds: along, values: shape.elevations.map { $0 ?? 0 }, target: 600)
                let feet = format.imperial ? 3.28084 : 1
                elevationChart = SVGChart.line(
                    seconds: shown.map { along[$0] }, values: shown.map { shape.elevations[$0].map { $0 * feet } }, label: t("Elevation profile of the route"),
                    unit: format.imperial ? "ft" : "m", colour: "#6b4f2a", fill: true, distanceAxis: format.imperial ? .miles : .kilometres)
            }
        }
        let page = ShowPage(
            layout: req.layout(title: route.name, section: .workouts, hasForms: access.isOwner), name: route.name, owner: owner.displayName,
            ownerURL: SiteURL.person(username: owner.username).path, length: format.distance(access.visibleLength),
            climb: format.elevation(access.visibleClimb),
            map: map, elevationChart: elevationChart, hiddenNote: access.isTrimmed,
            gpxURL: SiteURL.routeGPX(id).path, isOwner: access.isOwner, visibility: route.visibility.rawValue, visibilityLabel: route.visibility.label,
            visibilities: Route.Visibility.allCases.map { SelectOption(value: $0.rawValue, label: $0.label) }, action: SiteURL.route(id).path,
            deleteAction: SiteURL.deleteRoute(id).path, back: SiteURL.routes.path, error: error)
        return try await req.view.render("workouts/route", page).encodeResponse(status: status, for: req)
    }

    /// GPX 1.1 without times, one track segment per visible piece: what a device or an app takes as
    /// a course, and what Fieldhouse reads back as a route.
    private func gpx(_ req: Request, access: RouteAccess) async throws -> Response {
        let route = access.route
        let shape = route.shape
        var body = """
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="Fieldhouse" xmlns="http://www.topografix.com/GPX/1/1">
            <trk><name>\(SVGMap.escape(route.name))</name>\n
            """
        // Elevations belong to the stored points; the points a zone's edge adds have none.
        var elevations: [Coordinate: Double] = [:]
        for (point, elevation) in zip(shape.points, shape.elevations) where elevations[point] == nil { elevations[point] = elevation }
        for piece in access.pieces {
            body += "<trkseg>\n"
            for point in piece {
                body += "<trkpt lat=\"\(point.latitude)\" lon=\"\(point.longitude)\">"
                if let ele = elevations[point] { body += "<ele>\(ele)</ele>" }
                body += "</trkpt>\n"
            }
            body += "</trkseg>\n"
        }
        body += "</trk></gpx>\n"
        let filename = Slug.make(route.name).isEmpty ? "route" : Slug.make(route.name)
        return Response(
            status: .ok,
            headers: [
                "Content-Type": "application/gpx+xml", "Cache-Control": "private, no-store",
                "Content-Disposition": "attachment; filename=\"\(filename).gpx\"",
            ], body: .init(string: body))
    }

    struct UpdateForm: Content {
        var name: String?
        var visibility: String?
    }

    func update(req: Request) async throws -> Response {
        let user = try req.requireUser()
        let access = try await RouteAccess.load(req, id: req.parameters.get("id"))
        guard access.isOwner else { throw Abort(.notFound) }
        let form = try req.content.decode(UpdateForm.self)
        let name = AccountRules.collapseWhitespace(form.name ?? "")
        guard !name.isEmpty, name.count <= 100 else {
            return try await render(req, access: access, error: t("Give the route a name of up to 100 characters"), status: .unprocessableEntity)
        }
        guard let visibility = Route.Visibility(rawValue: form.visibility ?? "") else {
            return try await render(req, access: access, error: t("Choose who may see the route"), status: .unprocessableEntity)
        }
        // A route shows where a child goes: under 16 it is shared with friends at most.
        if visibility == .public, user.isUnder16(on: req.clock.today) {
            return try await render(req, access: access, error: t("People under 16 can share a route with friends at most"), status: .unprocessableEntity)
        }
        access.route.name = name
        access.route.visibility = visibility
        if visibility != .private, access.route.sharedAt == nil { access.route.sharedAt = req.now }
        try await access.route.save(on: req.db)
        req.flash(.success, visibility == .private ? t("Saved. Only you see this route.") : t("Saved. Shown to: {who}.", visibility.label.lowercased()))
        return req.redirect(to: .route(try access.route.requireID()))
    }

    func delete(req: Request) async throws -> Response {
        _ = try req.requireUser()
        let access = try await RouteAccess.load(req, id: req.parameters.get("id"))
        guard access.isOwner else { throw Abort(.notFound) }
        try await access.route.delete(on: req.db)
        req.flash(.success, t("The route “{name}” is deleted.", access.route.name))
        return req.redirect(to: .routes)
    }

    /// Keeps the path of one of the person's own workouts as a private route to follow again.
    func saveWorkout(req: Request) async throws -> Response {
        let user = try req.requireUser()
        let userID = try user.requireID()
        guard let id = req.parameters.get("id", as: UUID.self),
            let workout = try await Workout.query(on: req.db).filter(\.$id == id).filter(\.$user.$id == userID).first(),
            let timeline = try await WorkoutTimeline.load(workout, ownerView: true, on: req.db)
        else { throw Abort(.notFound) }
        // The path the workout's page draws: no GPS jumps (`SpeedSpikes`), and no line between
        // segments that lie apart.
        let (located, starts) = SpeedSpikes.clean(
            timeline.points, segmentStarts: workout.segmentStarts(in: timeline.points), sport: WorkoutSport(rawValue: workout.sport) ?? .other,
            legs: workout.legList
        ).located
        guard located.count >= 2 else {
            req.flash(.error, t("This workout has no path to keep as a route."))
            return req.redirect(to: .workout(id))
        }
        let shape = RouteShape(points: located.compactMap(\.coordinate), elevations: located.map(\.elevation), segmentStarts: starts)
        // The workout's id stands in for a file's checksum: saving it twice keeps one route.
        let key = "workout:" + SiteURL.id(id)
        if let existing = try await Route.query(on: req.db).filter(\.$user.$id == userID).filter(\.$sha256 == key).first() {
            req.flash(.success, t("This workout is already kept as a route."))
            return req.redirect(to: .route(try existing.requireID()))
        }
        let route = Route(user: userID, name: workout.name, shape: shape, sha256: key)
        do { try await route.create(on: req.db) } catch {
            guard let existing = try await Route.query(on: req.db).filter(\.$user.$id == userID).filter(\.$sha256 == key).first() else { throw error }
            return req.redirect(to: .route(try existing.requireID()))
        }
        req.flash(.success, t("Kept as a private route. Share it below if you like."))
        return req.redirect(to: .route(try route.requireID()))
    }
}
