import FieldhouseKit
import Fluent
import NIOConcurrencyHelpers
import SQLKit
import Vapor

/// What a live viewer is sent: the visible track and the figures, as one JSON line per event.
struct LiveFigures: Encodable, Sendable {
    /// `[latitude, longitude, epoch ms]`, oldest first; a fourth element, 1, marks a point that starts
    /// a new piece of line (after a stretch the viewer may not see).
    var points: [[Double]]
    var elapsed_s: Int
    var distance_m: Int
    var hr: Int?
    var zone: Int?
    var ended: Bool
}

/// One version of a live track: the owner's, or everyone else's.
struct LiveTrack: Sendable {
    var points: [[Double]] = []
    var distance: Double = 0
    /// The last point kept, when the next one continues from it (not after a hidden stretch).
    var last: Coordinate?

    mutating func add(_ point: Coordinate, at t: Int64) -> [Double] {
        var row = [Self.rounded(point.latitude), Self.rounded(point.longitude), Double(t)]
        if let last {
            distance += Geo.distance(last, point)
        } else if !points.isEmpty {
            row.append(1)
        }
        last = point
        points.append(row)
        return row
    }

    /// Six decimals: about 10 cm, more than any phone's fix is worth.
    static func rounded(_ value: Double) -> Double { (value * 1_000_000).rounded() / 1_000_000 }
}

/// A recording's samples read as they arrive: the track as the owner sees it and as everyone else
/// does (without the points inside the owner's privacy zones), and the last heart rate.
struct LiveReader: Sendable {
    /// Points a track keeps: over five hours at one a second. A recording that sends more (or
    /// faster) shows its start; the workout page has all of it once finished.
    static let maxPoints = 20_000
    /// Rows read per query, so a long backlog never arrives in one answer.
    static let batch = 5_000

    let ownerID: UUID
    let startMS: Int64
    let zones: [PrivacyZone]
    let limits: [Int]
    var endMS: Int64?
    private(set) var owner = LiveTrack()
    private(set) var others = LiveTrack()
    private(set) var heartRate: Int?
    /// Whether the last position was inside a privacy zone: others then get no heart rate either,
    /// which would tell them the owner is moving where they may not look.
    private(set) var lastInside = false
    private var lastLocationT: Int64
    private var lastHeartT: Int64

    init(access: LiveAccess, zones: [PrivacyZone]) throws {
        ownerID = try access.owner.requireID()
        startMS = access.workout.startMS
        endMS = access.workout.endMS
        self.zones = zones
        limits = access.owner.heartRateZones?.limits ?? []
        lastLocationT = startMS - 1
        lastHeartT = startMS - 1
    }

    /// The last moment a recording's samples are read from: its end, or 12 hours after its start
    /// for one never finished (what the person records later is not this recording's).
    var until: Int64 { endMS ?? (startMS + Int64(LiveAccess.staleAfter) * 1000) }

    /// Reads the samples stored since the last read; returns the new points of each track.
    @discardableResult
    mutating func read(_ sql: any SQLDatabase) async throws -> (owner: [[Double]], others: [[Double]]) {
        let heart = try await sql.raw(
            """
            SELECT t, bpm FROM heart_rate_samples WHERE user_id = \(bind: ownerID) AND t > \(bind: lastHeartT) AND t <= \(bind: until)
            ORDER BY t DESC LIMIT 1
            """
        ).first()
        // An integer column on PostgreSQL, any number on SQLite.
        if let heart, let t = try? heart.decode(column: "t", as: Int64.self),
            let whole = (try? heart.decode(column: "bpm", as: Int.self))
                ?? (try? heart.decode(column: "bpm", as: Double.self)).flatMap({ Int(exactly: $0.rounded()) })
        {
            lastHeartT = t
            heartRate = whole
        }
        var newOwner: [[Double]] = [], newOthers: [[Double]] = []
        while owner.points.count < Self.maxPoints {
            let rows = try await sql.numberRows(
                """
                SELECT t, lat, lon FROM location_samples WHERE user_id = \(bind: ownerID) AND t > \(bind: lastLocationT) AND t <= \(bind: until)
                ORDER BY t LIMIT \(bind: min(Self.batch, Self.maxPoints - owner.points.count))
                """, columns: ["t", "lat", "lon"])
            for row in rows {
                guard row.count == 3, let time = row[0].flatMap({ Int64(exactly: $0) }) else { continue }
                lastLocationT = max(lastLocationT, time)
                guard let lat = row[1], let lon = row[2] else { continue }
                let point = Coordinate(latitude: lat, longitude: lon)
                newOwner.append(owner.add(point, at: time))
                lastInside = zones.contains(where: { $0.contains(point) })
                if lastInside {
                    others.last = nil
                } else {
                    newOthers.append(others.add(point, at: time))
                }
            }
            if rows.count < Self.batch { break }
        }
        return (newOwner, newOthers)
    }

    /// The figures for one track with the given points, at `now`. For anyone but the owner the
    /// recording starts at its first point they may see, so the time spent inside a privacy zone
    /// before it (how far from home the first visible point is) is not told.
    func figures(ownerView: Bool, points: [[Double]]? = nil, now: Date) -> LiveFigures {
        let track = ownerView ? owner : others
        let nowMS = Int64(now.timeIntervalSince1970 * 1000)
        let end = endMS ?? max(nowMS, lastLocationT, lastHeartT)
        let start = ownerView ? startMS : track.points.first.map { Int64($0[2]) }
        let hidden = !ownerView && (lastInside || start == nil)
        return LiveFigures(
            points: points ?? track.points, elapsed_s: start.map { Int(max(0, end - $0) / 1000) } ?? 0,
            distance_m: Int(track.distance.rounded()), hr: hidden ? nil : heartRate, zone: hidden ? nil : heartRate.flatMap(zone),
            ended: endMS != nil)
    }

    /// When the viewer's track starts: the recording's start for its owner, the first point they
    /// may see for anyone else (nil before there is one).
    func start(ownerView: Bool) -> Int64? {
        ownerView ? startMS : others.points.first.map { Int64($0[2]) }
    }

    /// The zone (1–5) a heart rate is in, by the owner's zones; nil below zone 1 or without zones.
    func zone(_ bpm: Int) -> Int? {
        let reached = limits.filter { $0 > 0 && $0 <= bpm }.count
        return reached == 0 ? nil : reached
    }
}

/// One recording watched on this process: it reads the owner's new samples once per signal
/// (`LiveReader`) and hands each viewer what is new for them. Viewers on other processes have a
/// room of their own there; `LiveBus` wakes every room. Every `recheck` interval it asks again
/// whether each viewer may still watch (a follow ended, a coach let go, a team left, the
/// recording gone stale) and whether the owner's privacy zones changed.
actor LiveRoom {
    static let recheck: Duration = .seconds(15)

    enum Event: Sendable {
        case update(String)
        case end(String)
    }

    private struct Viewer {
        let user: User
        let isOwner: Bool
        let continuation: AsyncStream<Event>.Continuation
    }

    let workoutID: UUID
    private var reader: LiveReader
    private let access: LiveAccess
    private let database: @Sendable () -> any Database
    private let clock: @Sendable () -> Date
    private var shareStamp: Date?
    private var viewers: [UUID: Viewer] = [:]
    private var listening: [Task<Void, Never>] = []

    init(access: LiveAccess, zones: [PrivacyZone], database: @escaping @Sendable () -> any Database, clock: @escaping @Sendable () -> Date) throws {
        workoutID = try access.workout.requireID()
        reader = try LiveReader(access: access, zones: zones)
        shareStamp = access.share?.updatedAt
        self.access = access
        self.database = database
        self.clock = clock
    }

    /// Reads the track so far and starts following the bus.
    func start(bus: LiveBus) async throws {
        // Subscribed before the first read: samples stored during it signal a second read at once.
        let samples = bus.subscribe(LiveTopic.samples(of: reader.ownerID))
        let workout = bus.subscribe(LiveTopic.workout(workoutID))
        var reader = self.reader
        try await reader.read(database() as! any SQLDatabase)
        self.reader = reader
        listening = [
            Task { [weak self] in
                for await _ in samples { try? await self?.refresh(workoutChanged: false) }
            },
            Task { [weak self] in
                for await _ in workout { try? await self?.refresh(workoutChanged: true) }
            },
            Task { [weak self] in
                while (try? await Task.sleep(for: Self.recheck)) != nil {
                    try? await self?.recheckViewers()
                }
            },
        ]
    }

    func stop() {
        for task in listening { task.cancel() }
        listening = []
        for viewer in viewers.values { viewer.continuation.finish() }
        viewers = [:]
    }

    /// A new viewer: everything visible so far now, then what is new as it comes.
    func join(_ user: User, isOwner: Bool) -> (id: UUID, first: String, events: AsyncStream<Event>) {
        let id = UUID()
        let (stream, continuation) = AsyncStream<Event>.makeStream(bufferingPolicy: .bufferingNewest(64))
        viewers[id] = Viewer(user: user, isOwner: isOwner, continuation: continuation)
        return (id, Self.json(reader.figures(ownerView: isOwner, now: clock())), stream)
    }

    func leave(_ id: UUID) {
        viewers[id]?.continuation.finish()
        viewers[id] = nil
    }

    private var refreshing = false
    private var again = false
    private var againWorkout = false

    /// One refresh at a time: a signal that comes during one makes one more afterwards (the actor
    /// would otherwise let two reads of the same samples interleave at their awaits).
    private func refresh(workoutChanged: Bool) async throws {
        againWorkout = againWorkout || workoutChanged
        guard !refreshing else {
            again = true
            return
        }
        refreshing = true
        defer { refreshing = false }
        repeat {
            again = false
            let workout = againWorkout
            againWorkout = false
            try await refreshOnce(workoutChanged: workout)
        } while again
    }

    private func refreshOnce(workoutChanged: Bool) async throws {
        if workoutChanged {
            guard let workout = try await Workout.find(workoutID, on: database()) else { return finishAll(url: nil) }
            reader.endMS = workout.endMS
            let share = try await LiveShare.query(on: database()).filter(\.$workout.$id == workoutID).first()
            if share == nil || share?.updatedAt != shareStamp {
                // Shared otherwise or no longer: everyone but the owner reconnects and is asked again.
                shareStamp = share?.updatedAt
                endOthers()
            }
        }
        var reader = self.reader
        let new = try await reader.read(database() as! any SQLDatabase)
        self.reader = reader
        let now = clock()
        // Two versions of the news, written once each, whatever the number of viewers.
        let forOwner = Self.json(reader.figures(ownerView: true, points: new.owner, now: now))
        let forOthers = Self.json(reader.figures(ownerView: false, points: new.others, now: now))
        for (id, viewer) in viewers {
            // A viewer too slow to take 64 updates would miss points without knowing: their stream
            // ends instead, and the browser reconnects to the whole track.
            if case .dropped = viewer.continuation.yield(.update(viewer.isOwner ? forOwner : forOthers)) {
                viewer.continuation.finish()
                viewers[id] = nil
            }
        }
        if reader.endMS != nil { finishAll(url: SiteURL.workout(workoutID).path) }
    }

    /// Asks again for every viewer but the owner whether they may still watch, and ends the
    /// streams of those who may not. Zones changed: the others' track is read anew and every
    /// other viewer reconnects to get it.
    private func recheckViewers() async throws {
        let db = database()
        guard let workout = try await Workout.find(workoutID, on: db) else { return finishAll(url: nil) }
        let now = clock()
        guard LiveAccess.isLive(workout, now: now) else { return endOthers() }
        let zones = try await SavedPrivacyZone.zones(of: reader.ownerID, on: db)
        if zones != reader.zones {
            var fresh = try LiveReader(access: access, zones: zones)
            fresh.endMS = workout.endMS
            try await fresh.read(db as! any SQLDatabase)
            reader = fresh
            return endOthers()
        }
        guard let share = try await LiveShare.query(on: db).filter(\.$workout.$id == workoutID).first(),
            let owner = try await User.find(reader.ownerID, on: db)
        else { return endOthers() }
        let today = LocalTime.utcDay(of: now)
        for (id, viewer) in viewers where !viewer.isOwner {
            if !(try await LiveAccess.allows(share, owner: owner, viewer: viewer.user, today: today, on: db)) {
                viewers[id]?.continuation.finish()
                viewers[id] = nil
            }
        }
    }

    /// Ends every stream but the owner's: browsers reconnect and are asked again.
    private func endOthers() {
        for (id, viewer) in viewers where !viewer.isOwner {
            viewer.continuation.finish()
            viewers[id] = nil
        }
    }

    private func finishAll(url: String?) {
        struct End: Encodable { let url: String? }
        for viewer in viewers.values {
            viewer.continuation.yield(.end(Self.json(End(url: url))))
            viewer.continuation.finish()
        }
        viewers = [:]
    }

    static func json(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .withoutEscapingSlashes
        return (try? String(decoding: encoder.encode(value), as: UTF8.self)) ?? "{}"
    }
}

/// This process's rooms, one per recording watched here, each gone with its last viewer.
final class LiveRooms: Sendable {
    private struct Entry {
        let room: LiveRoom
        var viewers: Int
        let ready: Task<Void, any Error>
    }

    private let rooms = NIOLockedValueBox<[UUID: Entry]>([:])

    /// The room of `access`'s recording, made and started if nobody here watches it yet; the
    /// caller must `leave` once done.
    func enter(_ access: LiveAccess, app: Application) async throws -> LiveRoom {
        let id = try access.workout.requireID()
        let zones = try await SavedPrivacyZone.zones(of: access.owner.requireID(), on: app.db)
        let bus = app.liveBus
        let entry = try rooms.withLockedValue { rooms -> Entry in
            if var entry = rooms[id] {
                entry.viewers += 1
                rooms[id] = entry
                return entry
            }
            let room = try LiveRoom(access: access, zones: zones, database: { app.db }, clock: { app.clock.now })
            let entry = Entry(room: room, viewers: 1, ready: Task { try await room.start(bus: bus) })
            rooms[id] = entry
            return entry
        }
        do {
            try await entry.ready.value
        } catch {
            await leave(entry.room)
            throw error
        }
        return entry.room
    }

    func leave(_ room: LiveRoom) async {
        let id = room.workoutID
        let last = rooms.withLockedValue { rooms -> Bool in
            guard var entry = rooms[id], entry.room === room else { return false }
            entry.viewers -= 1
            if entry.viewers > 0 {
                rooms[id] = entry
                return false
            }
            rooms[id] = nil
            return true
        }
        if last { await room.stop() }
    }

    var count: Int { rooms.withLockedValue { $0.count } }

    /// Ends every stream on this process (the server is stopping): browsers reconnect to another
    /// process or once this one is back, and the server need not wait for them to leave.
    func closeAll() async {
        let all = rooms.withLockedValue { rooms -> [LiveRoom] in
            defer { rooms = [:] }
            return rooms.values.map(\.room)
        }
        for room in all { await room.stop() }
    }
}

/// Ends the live streams when the app shuts down.
struct LiveRoomsLifecycle: LifecycleHandler {
    func shutdownAsync(_ app: Application) async {
        await app.liveRooms.closeAll()
    }
}

extension Application {
    private struct LiveRoomsKey: StorageKey { typealias Value = LiveRooms }

    var liveRooms: LiveRooms {
        if let rooms = storage[LiveRoomsKey.self] { return rooms }
        let rooms = LiveRooms()
        storage[LiveRoomsKey.self] = rooms
        return rooms
    }
}
