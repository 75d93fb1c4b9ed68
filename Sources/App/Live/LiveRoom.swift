import FieldhouseKit
import Fluent
import NIOConcurrencyHelpers
import SQLKit
import Vapor

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
        try await reader.read(database().sql)
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
        let new = try await reader.read(database().sql)
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
            try await fresh.read(db.sql)
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
