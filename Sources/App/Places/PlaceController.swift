import FieldhouseKit
import Fluent
import SQLKit
import Vapor

/// `/places` (near me, by kind and sport), `/places/{id}` (map, games there, routes starting
/// nearby, the reward and checking in), and adding and changing places.
struct PlaceController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(PlacePath.places, use: index)
        routes.get(PlacePath.newPlace, use: newForm)
        routes.post(PlacePath.newPlace, use: create)
        routes.get(PlacePath.place, use: show)
        routes.get(PlacePath.editPlace, use: editForm)
        routes.post(PlacePath.editPlace, use: update)
        routes.post(PlacePath.acceptManager) { try await answerInvitation(req: $0, accept: true) }
        routes.post(PlacePath.declineManager) { try await answerInvitation(req: $0, accept: false) }
    }

    // MARK: List

    struct Item: Encodable {
        let name: String
        let url: String
        let kind: String
        let distance: String?
        let sports: String
        let reward: String?
    }

    struct IndexPage: Encodable {
        let layout: Layout
        let places: [Item]
        let pager: Pager
        let centreLabel: String?
        let form: [String: String]
        let errors: FieldErrors
        let kinds: [SelectOption]
        let choices: Choices
        let radii: [Int]
        let canAdd: Bool
        let action: String
        let newPlace: String
        /// The map of partner places and the listed ones (SVG, empty when there is nothing to show).
        var map = ""
        /// What the map's symbols mean, one line each.
        var legend: [LegendLine] = []
        /// Said when there are more partner places than the map shows.
        var mapLimit: String? = nil
    }

    static let radii = [1, 2, 5, 10, 25, 50]
    /// The most partner places one map shows: enough for a city and its surroundings, and a page
    /// that stays light (each is a few dozen bytes of SVG and of the zoomable map's data).
    static let mapPartnerLimit = 300

    func index(req: Request) async throws -> Response {
        var query = FindQuery(req)
        let kindText = (req.query[String.self, at: "kind"] ?? "").trimmingCharacters(in: .whitespaces)
        let kind = Place.Kind(rawValue: kindText)
        if !kindText.isEmpty, kind == nil { query.errors["kind"] = t("Choose a kind of place from the list") }
        let radiusKm = Self.radii.contains(Int(query.radiusKm)) && req.query[String.self, at: "radius_km"] != nil ? Int(query.radiusKm) : 10
        let format = Format(viewer: req.currentUser)
        var pager = Pager(req: req, perPage: 30)
        var items: [Item] = []
        var listed: [(url: String, place: Place)] = []
        let now = req.now
        func item(_ place: Place, metres: Double?) -> Item {
            let url = SiteURL.place(place.id!).path
            listed.append((url, place))
            return Item(
                name: place.name, url: url, kind: place.kind.label,
                distance: metres.map { Format.proximity($0, imperial: format.imperial) }, sports: place.sports.map(\.label).joined(separator: ", "),
                reward: place.reward(on: LocalTime.day(of: now, zone: place.timeZone)))
        }
        if query.isValid, let centre = query.centre {
            let hits = try await PlaceSearch.near(
                centre, radius: Double(radiusKm) * 1000, kind: kind, sport: query.sport, limit: pager.fetchLimit, offset: pager.offset, on: req.db)
            let places = Dictionary(uniqueKeysWithValues: try await Place.query(on: req.db).filter(\.$id ~~ hits.map(\.id)).all().map { ($0.id!, $0) })
            items = hits.compactMap { hit in places[hit.id].map { item($0, metres: hit.metres) } }
        } else if query.isValid {
            // Nowhere to measure from: every place by name, so the list is still useful.
            var rows = Place.query(on: req.db)
            if let kind { rows = rows.filter(\.$kind == kind) }
            if let sport = query.sport { rows = rows.filter(\.$sportsText, .custom("LIKE"), "%," + sport.rawValue + ",%") }
            items = try await rows.sort(\.$name).sort(\.$id).range(pager.offset..<(pager.offset + pager.fetchLimit)).all().map { item($0, metres: nil) }
        }
        var echo = query.echo.filter { ["lat", "lon", "sport"].contains($0.0) && !$0.1.isEmpty }
        echo += [("kind", kindText), ("radius_km", String(radiusKm))].filter { !$0.1.isEmpty }
        items = pager.finish(items, at: .places, query: echo)
        let fromHome = query.value("lat").isEmpty
        let centreLabel = query.centre == nil ? nil : fromHome ? t("Near your home area") : t("Near the point you gave")
        let partners = try await PlaceSearch.partners(near: query.centre, now: now, limit: Self.mapPartnerLimit, on: req.db)
        // The pager keeps one row more than it shows, to know of a next page: only those shown are on the map.
        let shownURLs = Set(items.map(\.url))
        let map = Self.placesMap(
            partners: partners.places, listed: listed.filter { shownURLs.contains($0.url) }.map(\.place), centre: query.centre, fromHome: fromHome,
            now: now, tiles: req.application.mapTiles)
        var form = Dictionary(echo, uniquingKeysWith: { $1 })
        form["radius_km"] = String(radiusKm)
        let page = IndexPage(
            layout: req.layout(title: t("Places"), section: .places), places: items, pager: pager, centreLabel: centreLabel, form: form,
            errors: query.errors, kinds: Place.Kind.allCases.map { SelectOption(value: $0.rawValue, label: $0.label) }, choices: Choices(),
            radii: Self.radii, canAdd: try await PlaceAccess.canAdd(req.currentUser, on: req.db), action: SiteURL.places.path,
            newPlace: SiteURL.newPlace.path, map: map.svg, legend: map.legend,
            mapLimit: partners.more
                ? query.centre == nil
                    ? t(
                        "The map shows the first {count} places by name that reward arriving by bike. Search near a point to see the others.",
                        Format.number(Double(Self.mapPartnerLimit), decimals: 0))
                    : t(
                        "The map shows the {count} places nearest the centre that reward arriving by bike; there are more further away.",
                        Format.number(Double(Self.mapPartnerLimit), decimals: 0))
                : nil)
        return try await req.view.render("places/index", page).encodeResponse(status: query.isValid ? .ok : .badRequest, for: req)
    }

    struct LegendLine: Encodable {
        let symbol: String
        let text: String
    }

    /// The places map: partner places (★, the main markers, drawn on top) and the other places the
    /// page lists (•), each linking to its page, and the point the list is measured from (⌂ the
    /// home area, ◎ a point given, drawn under the places), which is the viewer's own. Empty when
    /// there is no place to show.
    static func placesMap(
        partners: [Place], listed: [Place], centre: Coordinate?, fromHome: Bool, now: Date, tiles: MapTiles?
    ) -> (svg: String, legend: [LegendLine]) {
        var partnerMarkers: [SVGMap.Marker] = [], otherMarkers: [SVGMap.Marker] = []
        var seen = Set<UUID>()
        for place in partners + listed {
            guard let id = place.id, seen.insert(id).inserted else { continue }
            let href = SiteURL.place(id).path
            if let reward = place.reward(on: LocalTime.day(of: now, zone: place.timeZone)) {
                partnerMarkers.append(
                    .init(
                        coordinate: place.coordinate, symbol: "★", title: t("{place}, which rewards arriving by bike: {reward}", place.name, reward),
                        primary: true, href: href))
            } else {
                otherMarkers.append(.init(coordinate: place.coordinate, symbol: "•", title: place.name, primary: false, href: href))
            }
        }
        guard !partnerMarkers.isEmpty || !otherMarkers.isEmpty else { return ("", []) }
        var legend: [LegendLine] = []
        if !partnerMarkers.isEmpty { legend.append(LegendLine(symbol: "★", text: t("A place that rewards arriving by bike"))) }
        if !otherMarkers.isEmpty { legend.append(LegendLine(symbol: "•", text: t("Another place in the list below"))) }
        var centreMarkers: [SVGMap.Marker] = []
        if let centre {
            let (symbol, title) = fromHome ? ("⌂", t("Your home area")) : ("◎", t("The point you gave"))
            centreMarkers.append(.init(coordinate: centre, symbol: symbol, title: title, primary: false))
            legend.append(
                LegendLine(
                    symbol: symbol,
                    text: fromHome ? t("Your home area, which the list is measured from") : t("The point you gave, which the list is measured from")))
        }
        // Drawn in this order (the main markers last, on top): a partner is never hidden under another place.
        let markers = centreMarkers + otherMarkers + partnerMarkers
        let svg = SVGMap(
            markers: markers, tiles: tiles, offersLocation: true, label: t("Map of the places that reward arriving by bike and of the places listed below")
        ).svg
        return (svg, legend)
    }

    // MARK: One place

    struct GameItem: Encodable {
        let title: String
        let url: String
        let when: String
        let spots: String
    }

    struct RouteItem: Encodable {
        let name: String
        let url: String
        let distance: String
        let length: String
    }

    struct PhotoItem: Encodable {
        let url: String
        let fullURL: String
        let removeAction: String?
    }

    struct ShowPage: Encodable {
        let layout: Layout
        let name: String
        let kind: String
        let description: String
        let openingHours: String
        let sports: String
        let map: String
        let osmURL: String
        let photos: [PhotoItem]
        /// Where managers add a photo.
        let photoAction: String?
        let maxMB: Int
        let games: [GameItem]
        let routes: [RouteItem]
        let moreRoutes: String
        let newGame: String
        let reward: String?
        let rewardUntil: String?
        let checkinAction: String?
        let signIn: String?
        let canManage: Bool
        /// The viewer was asked to help manage the place: accept and decline.
        let invitedToManage: Bool
        let acceptAction: String
        let declineAction: String
        let editURL: String
        let rewardURL: String
        let redeemURL: String
        /// Back to the places (with the search as it was left) or home, wherever the person came from.
        let back: BackLink
    }

    func show(req: Request) async throws -> Response {
        let access = try await PlaceAccess.load(req, id: req.parameters.get("id"))
        let place = access.place
        let id = try place.requireID()
        let viewer = req.currentUser
        let format = Format(viewer: viewer)
        let now = req.now
        // Public games at the place: those within its radius (and a little more, for a big park's gate).
        let hits = try await GameSearch.search(
            FindQuery(centre: place.coordinate, radiusKm: max(place.radius, 150) / 1000), centre: place.coordinate, excludingTeams: [], limit: 20, offset: 0,
            now: now, on: req.db
        ).filter(\.exact)
        let games = try await GameSearch.results(for: hits, imperial: format.imperial, on: req.db).map { result in
            GameItem(
                title: result.title, url: result.url, when: result.when,
                spots: result.capacity.map { t("{joined} of {capacity}", result.joined, $0) + (result.full ? " · " + t("full") : "") }
                    ?? tn("{count} going", "{count} going", result.joined))
        }
        let routes = try await RouteSearch.near(place.coordinate, radius: 2_000, viewer: viewer?.id, today: req.clock.today, limit: 10, on: req.db).map { hit in
            RouteItem(
                name: hit.route.name, url: SiteURL.route(hit.route.id!).path, distance: Format.proximity(hit.metres, imperial: format.imperial),
                length: format.distance(hit.length))
        }
        let map = SVGMap(
            markers: [.init(coordinate: place.coordinate, symbol: "★", title: place.name, primary: true)], tiles: req.application.mapTiles,
            label: t("Map of where {place} is", place.name)
        ).svg
        let day = LocalTime.day(of: now, zone: place.timeZone)
        let reward = place.reward(on: day)
        let photos = try await PlacePhoto.query(on: req.db).filter(\.$place.$id == id).sort(\.$addedAt).limit(PlacePhoto.perPlace).all().map { item in
            PhotoItem(
                url: SiteURL.photo(item.$photo.id, size: .large).path, fullURL: SiteURL.photo(item.$photo.id, size: nil).path,
                removeAction: access.canManage ? SiteURL.deletePlacePhoto(id, photo: item.$photo.id).path : nil)
        }
        let lat = Format.coordinate(place.latitude, decimals: 5), lon = Format.coordinate(place.longitude, decimals: 5)
        let page = ShowPage(
            layout: req.layout(title: place.name, section: .places, hasForms: reward != nil || access.canManage), name: place.name, kind: place.kind.label,
            description: place.description, openingHours: place.openingHours, sports: place.sports.map(\.label).joined(separator: ", "), map: map,
            osmURL: "https://www.openstreetmap.org/?mlat=\(lat)&mlon=\(lon)#map=17/\(lat)/\(lon)",
            photos: photos, photoAction: access.canManage ? SiteURL.placePhotos(id).path : nil,
            maxMB: req.application.config.maxUploadBytes / 1_048_576, games: games, routes: routes,
            moreRoutes: SiteURL.routes(near: place.coordinate, radiusKm: 10),
            newGame: SiteURL.newGame(venue: place.name, at: place.coordinate, zone: place.timeZone), reward: reward,
            rewardUntil: reward == nil ? nil : place.rewardUntil.flatMap(CalendarDate.init(iso:)).map { t("Offered until {date}", Format.day($0)) },
            checkinAction: reward != nil && viewer != nil ? SiteURL.placeCheckin(id).path : nil,
            signIn: reward != nil && viewer == nil ? SiteURL.login(next: SiteURL.place(id).path) : nil, canManage: access.canManage,
            invitedToManage: try await Self.invitation(to: id, for: viewer, on: req.db) != nil,
            acceptAction: SiteURL.answerPlaceManager(id, accept: true).path, declineAction: SiteURL.answerPlaceManager(id, accept: false).path,
            editURL: SiteURL.editPlace(id).path, rewardURL: SiteURL.placeReward(id).path, redeemURL: SiteURL.placeRedeem(id).path,
            back: BackLink.back(on: req, to: BackLink(.places, t("Places")), from: [BackLink(.places, t("Places")), BackLink(.home, t("Home"))]))
        return try await req.view.render("places/show", page).encodeResponse(for: req)
    }

    // MARK: Adding and changing

    struct SportChoice: Encodable {
        let value: String
        let label: String
        let checked: Bool
    }

    struct FormPage: Encodable {
        let layout: Layout
        let heading: String
        let form: PlaceForm
        let errors: FieldErrors
        let kinds: [SelectOption]
        let sports: [SportChoice]
        let timeZones: [String]
        let action: String
        let back: String
        let submit: String
    }

    private func renderForm(
        _ req: Request, form: PlaceForm, errors: FieldErrors = [:], editing: Place? = nil, status: HTTPStatus = .ok
    ) async throws -> Response {
        let page = FormPage(
            layout: req.layout(title: editing == nil ? t("Add a place") : t("Change {place}", editing!.name), section: .places, hasForms: true),
            heading: editing == nil ? t("Add a place") : t("Change {place}", editing!.name), form: form, errors: errors,
            kinds: Place.Kind.allCases.map { SelectOption(value: $0.rawValue, label: $0.label) },
            sports: Sport.allCases.map { SportChoice(value: $0.rawValue, label: $0.label, checked: (form.sports ?? []).contains($0.rawValue)) },
            timeZones: Format.timeZoneIdentifiers, action: editing.map { SiteURL.editPlace($0.id!).path } ?? SiteURL.newPlace.path,
            back: editing.map { SiteURL.place($0.id!).path } ?? SiteURL.places.path, submit: editing == nil ? t("Add the place") : t("Save"))
        return try await req.view.render("places/form", page).encodeResponse(status: status, for: req)
    }

    private func requireAdder(_ req: Request) async throws -> User {
        let user = try req.requireUser()
        guard try await PlaceAccess.canAdd(user, on: req.db) else {
            throw Abort(.forbidden, reason: t("Places are added by the server's admins and the people who manage a place."))
        }
        return user
    }

    func newForm(req: Request) async throws -> Response {
        let user = try await requireAdder(req)
        return try await renderForm(req, form: PlaceForm(zone: user.timeZone))
    }

    func create(req: Request) async throws -> Response {
        let user = try await requireAdder(req)
        let form = try req.content.decode(PlaceForm.self)
        let (valid, errors) = form.validate()
        guard let valid else { return try await renderForm(req, form: form, errors: errors, status: .unprocessableEntity) }
        var managers = try await users(named: valid.managers, by: user, today: req.clock.today, on: req.db)
        guard managers.missing.isEmpty else {
            return try await renderForm(
                req, form: form, errors: ["managers": t("No one 16 or over is called {names}", managers.missing.joined(separator: ", "))],
                status: .unprocessableEntity)
        }
        // Someone who manages places and adds one manages it too; an admin need not.
        if user.role != .admin { managers.ids.insert(try user.requireID()) }
        let managerIDs = managers.ids
        let place = Place()
        apply(valid, to: place)
        place.rewardText = ""
        place.rewardDailyCap = 0
        place.$creator.id = user.id
        let adderID = try user.requireID()
        try await req.db.inTransaction { db in
            try await place.create(on: db)
            try await Self.setManagers(managerIDs, of: place, by: user, keeping: [adderID], on: db)
        }
        req.flash(.success, t("Added {place}.", place.name))
        return req.redirect(to: .place(try place.requireID()))
    }

    func editForm(req: Request) async throws -> Response {
        let access = try await PlaceAccess.manager(req, id: req.parameters.get("id"))
        return try await renderForm(req, form: PlaceForm(access.place, managers: try await managerNames(of: access.place, on: req.db)), editing: access.place)
    }

    func update(req: Request) async throws -> Response {
        let user = try req.requireUser()
        let access = try await PlaceAccess.manager(req, id: req.parameters.get("id"))
        let place = access.place
        let form = try req.content.decode(PlaceForm.self)
        let (valid, errors) = form.validate()
        guard let valid else { return try await renderForm(req, form: form, errors: errors, editing: place, status: .unprocessableEntity) }
        let present = Set(try await PlaceManager.query(on: req.db).filter(\.$place.$id == place.requireID()).all().map(\.$user.id))
        let managers = try await users(named: valid.managers, by: user, keeping: present, today: req.clock.today, on: req.db)
        guard managers.missing.isEmpty else {
            return try await renderForm(
                req, form: form, errors: ["managers": t("No one 16 or over is called {names}", managers.missing.joined(separator: ", "))], editing: place,
                status: .unprocessableEntity)
        }
        // A manager who leaves themselves out would lock themselves out: only an admin may.
        if user.role != .admin, !managers.ids.contains(try user.requireID()) {
            return try await renderForm(
                req, form: form, errors: ["managers": t("Keep yourself among the managers; an admin can take you off")], editing: place,
                status: .unprocessableEntity)
        }
        apply(valid, to: place)
        let placeID = try place.requireID()
        try await req.db.inTransaction { db in
            try await place.save(on: db)
            try await Self.setManagers(managers.ids, of: place, by: user, keeping: [], on: db)
        }
        req.flash(.success, t("Saved."))
        return req.redirect(to: .place(placeID))
    }

    private func apply(_ valid: PlaceForm.Valid, to place: Place) {
        place.name = valid.name
        place.kind = valid.kind
        place.latitude = valid.coordinate.latitude
        place.longitude = valid.coordinate.longitude
        place.radius = valid.radius
        place.description = valid.description
        place.openingHours = valid.openingHours
        place.sportsText = Place.sportsText(valid.sports)
        place.timeZone = valid.timeZone
    }

    /// The people named; those unknown, those the person naming them may not know of (the form must
    /// not confirm that a private profile exists), and those under 16 (a place's counter is adults'
    /// work, and naming a child there would tell the place who they are), count as missing.
    /// The place's present managers (`keeping`) stay whatever their profile says.
    private func users(named names: [String], by adder: User, keeping: Set<UUID> = [], today: CalendarDate, on db: any Database) async throws -> (
        ids: Set<UUID>, missing: [String]
    ) {
        guard !names.isEmpty else { return ([], []) }
        let candidates = try await User.query(on: db).filter(\.$username ~~ names).all()
        let relations = try await Relations.load(viewer: adder, people: candidates.compactMap(\.id), today: today, on: db)
        let found = candidates.filter { person in
            !person.isUnder16(on: today) && (keeping.contains(person.id!) || PersonAccess.canSeeExists(person, relations.relation(to: person)))
        }
        let known = Set(found.map(\.username))
        return (Set(found.compactMap(\.id)), names.filter { !known.contains($0) })
    }

    /// Makes `wanted` the place's managers: those already there keep their answer, those leaving
    /// go, and a new one is asked (with a note) unless they are in `keeping` (the person adding a
    /// place manages it at once).
    static func setManagers(_ wanted: Set<UUID>, of place: Place, by adder: User, keeping: Set<UUID>, on db: any Database) async throws {
        let placeID = try place.requireID()
        let present = try await PlaceManager.query(on: db).filter(\.$place.$id == placeID).all()
        for row in present where !wanted.contains(row.$user.id) { try await row.delete(on: db) }
        let asked = wanted.subtracting(present.map(\.$user.id))
        for person in asked {
            try await PlaceManager(place: placeID, user: person, accepted: keeping.contains(person)).create(on: db)
        }
        let invited = Array(asked.subtracting(keeping))
        guard !invited.isEmpty else { return }
        try await Notification.send(
            to: invited, from: adder.requireID(), kind: .placeManager,
            text: t("{name} asked you to help manage {place}: say yes or no on its page.", adder.displayName, place.name),
            link: SiteURL.place(placeID).path, on: db)
    }

    /// The viewer's open invitation to manage the place, if any.
    static func invitation(to placeID: UUID, for viewer: User?, on db: any Database) async throws -> PlaceManager? {
        guard let viewerID = viewer?.id else { return nil }
        return try await PlaceManager.query(on: db).filter(\.$place.$id == placeID).filter(\.$user.$id == viewerID).filter(\.$accepted == false)
            .first()
    }

    func answerInvitation(req: Request, accept: Bool) async throws -> Response {
        let user = try req.requireUser()
        guard let raw = req.parameters.get("id"), let placeID = UUID(uuidString: raw),
            let invitation = try await Self.invitation(to: placeID, for: user, on: req.db)
        else { throw Abort(.notFound, reason: t("That invitation is no longer open.")) }
        if accept {
            invitation.accepted = true
            try await invitation.save(on: req.db)
            req.flash(.success, t("You now help manage this place: its counter and reward are yours to use."))
        } else {
            try await invitation.delete(on: req.db)
            req.flash(.info, t("Invitation declined."))
        }
        return req.redirect(to: .place(placeID))
    }

    private func managerNames(of place: Place, on db: any Database) async throws -> [String] {
        try await PlaceManager.query(on: db).filter(\.$place.$id == place.requireID()).with(\.$user).all().map(\.user.username).sorted()
    }
}
