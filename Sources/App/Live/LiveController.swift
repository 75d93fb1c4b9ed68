import FieldhouseKit
import Fluent
import SQLKit
import Vapor

/// `/live/{workout}`: a recording as it happens, for its owner and the audience they chose
/// (`LiveAccess`), and `/live/{workout}/events`, its server-sent events. The page works without
/// script (it reloads every 30 seconds); with script it follows the events.
struct LiveController: RouteCollection {
    /// A comment line this often keeps proxies from closing a quiet stream and tells a closed one.
    static let keepAlive: Duration = .seconds(15)

    func boot(routes: any RoutesBuilder) throws {
        routes.get(LivePath.live, use: page)
        routes.get(LivePath.liveEvents, use: events)
    }

    struct LivePage: Encodable {
        struct Owner: Encodable {
            let name: String
            let username: String
            let profileURL: String
        }

        let layout: Layout
        let owner: Owner
        let isOwner: Bool
        let sport: String
        let measure: String
        let imperial: Bool
        let startedAt: String
        let startedMachine: String
        let elapsed: String
        let distance: String
        let heartRate: String?
        let zone: Int?
        /// The visible track drawn on the server (escaped by `SVGMap`), nil before the first point.
        let map: String?
        /// `[[latitude, longitude, ms], …]` for the script to carry on from.
        let points: String
        let eventsURL: String
        let ended: Bool
        let workoutURL: String?
        let audience: String?
    }

    func page(req: Request) async throws -> Response {
        let access: LiveAccess
        do {
            access = try await LiveAccess.load(req, id: req.parameters.get("id"))
        } catch let abort as AbortError where abort.status == .notFound {
            // A recording that has finished is a workout: its page decides who sees it.
            if let raw = req.parameters.get("id"), let id = UUID(uuidString: raw), let workout = try await Workout.find(id, on: req.db),
                workout.endMS != nil, try await WorkoutAccess.canView(workout, viewer: req.currentUser, today: req.clock.today, on: req.db)
            {
                return req.redirect(to: SiteURL.workout(id).path)
            }
            throw abort
        }
        let workoutID = try access.workout.requireID()
        var reader = try LiveReader(access: access, zones: access.isOwner ? [] : try await SavedPrivacyZone.zones(of: access.owner.requireID(), on: req.db))
        try await reader.read(req.db.sql)
        let figures = reader.figures(ownerView: access.isOwner, now: req.now)
        // For anyone but the owner, from the first point they may see (see `LiveReader.figures`).
        let started = reader.start(ownerView: access.isOwner).map { Date(timeIntervalSince1970: Double($0) / 1000) } ?? req.now
        let format = Format(viewer: req.currentUser)
        let sport = WorkoutSport(rawValue: access.workout.sport) ?? .other
        let track = (access.isOwner ? reader.owner : reader.others).points
        let ended = access.workout.endMS != nil
        let map =
            track.count >= 2
            ? SVGMap(
                markers: [], tiles: req.application.mapTiles,
                paths: Self.pieces(track), areaMargin: 6, label: t("Map of the route so far")
            ).svg : nil
        let page = LivePage(
            layout: req.layout(
                title: t("{name}, live", access.owner.displayName), section: .workouts, refreshSeconds: ended ? nil : 30,
                refreshWithoutScriptOnly: true),
            owner: .init(name: access.owner.displayName, username: access.owner.username, profileURL: SiteURL.person(username: access.owner.username).path),
            isOwner: access.isOwner, sport: sport.label, measure: RecordedSport.measure(sport),
            imperial: format.imperial,
            startedAt: format.shortWhen(started), startedMachine: Format.machine(started),
            elapsed: Format.duration(Double(figures.elapsed_s)), distance: format.distance(Double(figures.distance_m)),
            heartRate: figures.hr.map { t("{bpm} bpm", $0) }, zone: figures.zone, map: map,
            points: LiveRoom.json(track), eventsURL: SiteURL.liveEvents(workoutID).path, ended: ended,
            workoutURL: ended ? SiteURL.workout(workoutID).path : nil, audience: access.share?.audience?.rawValue)
        let response = try await req.view.render("live/live", page).encodeResponse(for: req)
        response.headers.replaceOrAdd(name: .cacheControl, value: "no-store")
        return response
    }

    /// The track in pieces where it continues (a hidden stretch splits it), for the server's map.
    static func pieces(_ points: [[Double]]) -> [[Coordinate]] {
        var pieces: [[Coordinate]] = []
        for row in points where row.count >= 3 {
            if pieces.isEmpty || row.count > 3 { pieces.append([]) }
            pieces[pieces.count - 1].append(Coordinate(latitude: row[0], longitude: row[1]))
        }
        return pieces
    }

    func events(req: Request) async throws -> Response {
        let access = try await LiveAccess.load(req, id: req.parameters.get("id"))
        let app = req.application
        let room = try await app.liveRooms.enter(access, app: app)
        guard let viewer = req.currentUser else { throw Abort(.notFound) }
        let (id, first, events) = await room.join(viewer, isOwner: access.isOwner)
        var headers = HTTPHeaders()
        headers.contentType = HTTPMediaType(type: "text", subType: "event-stream", parameters: ["charset": "utf-8"])
        headers.replaceOrAdd(name: .cacheControl, value: "no-store")
        // nginx (make cluster) must pass each event on at once rather than fill its buffer first.
        headers.replaceOrAdd(name: "X-Accel-Buffering", value: "no")
        let rooms = app.liveRooms
        let body = Response.Body(managedAsyncStream: { writer in
            defer {
                Task {
                    await room.leave(id)
                    await rooms.leave(room)
                }
            }
            try await writer.writeBuffer(ByteBuffer(string: "retry: 3000\nevent: state\ndata: \(first)\n\n"))
            let pings = Task {
                // A comment now and then: a closed connection shows as a failed write, which ends
                // the viewer's events and so the stream.
                do {
                    while true {
                        try await Task.sleep(for: Self.keepAlive)
                        try await writer.writeBuffer(ByteBuffer(string: ": keep-alive\n\n"))
                    }
                } catch {
                    await room.leave(id)
                }
            }
            defer { pings.cancel() }
            for await event in events {
                switch event {
                case .update(let json): try await writer.writeBuffer(ByteBuffer(string: "event: update\ndata: \(json)\n\n"))
                case .end(let json): try await writer.writeBuffer(ByteBuffer(string: "event: end\ndata: \(json)\n\n"))
                }
            }
        })
        return Response(status: .ok, headers: headers, body: body)
    }
}
