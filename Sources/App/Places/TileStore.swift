import Foundation
import NIOConcurrencyHelpers
import NIOCore
import Vapor

/// The tiles kept under `<data>/tiles`, with what each takes on disk and when it was last served,
/// so the folder stays under `FIELDHOUSE_TILE_CACHE_MB`: past it, the least recently served tiles go
/// until a tenth is free. The index is read from the folder on first use (a restart keeps the files,
/// and their modification times stand for when they were last served until they are served again).
final class TileStore: Sendable {
    /// The folder under the data directory (`Places.dataFolders`).
    static let folder = "tiles"

    private struct Entry {
        var bytes: Int
        /// When last served, and a count that orders tiles served in the same second.
        var used: Double
        var order: UInt64 = 0
    }

    private struct State {
        var loaded = false
        var entries: [String: Entry] = [:]
        var total = 0
        var count: UInt64 = 0

        mutating func touch(_ name: String, bytes: Int? = nil, now: Date) {
            count += 1
            let old = entries[name]
            entries[name] = Entry(bytes: bytes ?? old?.bytes ?? 0, used: now.timeIntervalSince1970, order: count)
            total += (bytes ?? old?.bytes ?? 0) - (old?.bytes ?? 0)
        }
    }

    let folder: String
    let capacity: Int
    private let state = NIOLockedValueBox(State())

    init(folder: String, capacity: Int) {
        self.folder = folder
        self.capacity = capacity
    }

    /// The path of a tile under the folder: `z/x/y.png`.
    static func name(z: Int, x: Int, y: Int) -> String { "\(z)/\(x)/\(y).png" }

    /// Whether the tile is kept; marks it as served now.
    func use(_ name: String, now: Date) -> Bool {
        state.withLockedValue { state in
            load(&state)
            guard state.entries[name] != nil else { return false }
            state.touch(name, now: now)
            return true
        }
    }

    /// Writes a fetched tile and makes room for it; returns the paths removed to do so.
    @discardableResult
    func keep(_ bytes: [UInt8], as name: String, now: Date) throws -> [String] {
        let path = folder + "/" + name
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try PhotoFiles.writeAtomically(bytes, to: path)
        let evicted: [String] = state.withLockedValue { state in
            load(&state)
            state.touch(name, bytes: bytes.count, now: now)
            guard state.total > capacity else { return [] }
            var gone: [String] = []
            let oldestFirst = state.entries.sorted { ($0.value.used, $0.value.order) < ($1.value.used, $1.value.order) }
            for (old, entry) in oldestFirst where state.total > capacity * 9 / 10 {
                guard old != name else { continue }
                state.entries[old] = nil
                state.total -= entry.bytes
                gone.append(old)
            }
            return gone
        }
        for old in evicted { try? FileManager.default.removeItem(atPath: folder + "/" + old) }
        return evicted
    }

    /// Forgets a tile whose file went missing (another process evicted it).
    func forget(_ name: String) {
        state.withLockedValue { state in
            if let entry = state.entries.removeValue(forKey: name) { state.total -= entry.bytes }
        }
    }

    /// What the folder holds, in bytes.
    var totalBytes: Int {
        state.withLockedValue { state in
            load(&state); return state.total
        }
    }

    private func load(_ state: inout State) {
        guard !state.loaded else { return }
        state.loaded = true
        let root = URL(fileURLWithPath: folder)
        guard
            let files = FileManager.default.enumerator(
                at: root, includingPropertiesForKeys: [.fileSizeKey, .contentModificationDateKey, .isRegularFileKey])
        else { return }
        for case let url as URL in files {
            guard let values = try? url.resourceValues(forKeys: [.fileSizeKey, .contentModificationDateKey, .isRegularFileKey]),
                values.isRegularFile == true, url.pathExtension == "png"
            else { continue }
            let name = String(url.path.dropFirst(root.path.count + 1))
            let bytes = values.fileSize ?? 0
            state.entries[name] = Entry(bytes: bytes, used: values.contentModificationDate?.timeIntervalSince1970 ?? 0)
            state.total += bytes
        }
    }
}

/// How many tiles a client may make this server fetch: a bucket of `burst` that refills at `perSecond`,
/// per client address, and one for everyone together, so no visitor, nor all of them at once, can
/// turn the proxy into a bulk download of the tile server (whose policy forbids it). Tiles already
/// kept cost nothing. A person zooming and dragging a map needs 20–40 new tiles a view: the bucket
/// holds a few minutes of exploring and refills at a view every few seconds.
final class TileLimiter: Sendable {
    private struct Bucket {
        var tokens: Double
        var at: Double
    }

    let burst: Double
    let perSecond: Double
    let everyoneBurst: Double
    let everyonePerSecond: Double
    private let buckets = NIOLockedValueBox([String: Bucket]())

    init(burst: Double = 200, perSecond: Double = 5, everyoneBurst: Double = 1000, everyonePerSecond: Double = 25) {
        self.burst = burst
        self.perSecond = perSecond
        self.everyoneBurst = everyoneBurst
        self.everyonePerSecond = everyonePerSecond
    }

    /// Whose bucket an address draws on: an IPv4 address, or an IPv6 address's /64 (one home or
    /// one server has a whole /64 to pick addresses from).
    static func client(_ address: String?) -> String {
        guard let address, !address.isEmpty else { return "unknown" }
        guard address.contains(":"), let parsed = try? SocketAddress(ipAddress: address, port: 0), case .v6(let v6) = parsed else { return address }
        let bytes = withUnsafeBytes(of: v6.address.sin6_addr) { Array($0.prefix(8)) }
        return "v6:" + bytes.map { String($0, radix: 16) }.joined(separator: ":")
    }

    /// Takes one fetch for `client`; false when the client, or everyone, has used up their share.
    func allow(_ client: String, now: Date) -> Bool {
        let time = now.timeIntervalSince1970
        return buckets.withLockedValue { buckets in
            if buckets.count > 50_000 {
                // Full buckets say nothing a new one would not.
                buckets = buckets.filter { $0.value.tokens + (time - $0.value.at) * perSecond < burst }
            }
            func refilled(_ key: String, burst: Double, rate: Double) -> Bucket {
                let old = buckets[key] ?? Bucket(tokens: burst, at: time)
                return Bucket(tokens: min(burst, old.tokens + max(0, time - old.at) * rate), at: time)
            }
            var mine = refilled("client:" + client, burst: burst, rate: perSecond)
            var all = refilled("everyone", burst: everyoneBurst, rate: everyonePerSecond)
            guard mine.tokens >= 1, all.tokens >= 1 else {
                buckets["client:" + client] = mine
                buckets["everyone"] = all
                return false
            }
            mine.tokens -= 1
            all.tokens -= 1
            buckets["client:" + client] = mine
            buckets["everyone"] = all
            return true
        }
    }
}

/// One upstream fetch per tile however many ask for it at once: the first asker's fetch is
/// shared with everyone who asks while it runs.
actor TileFetches {
    private var running: [String: Task<[UInt8], any Error>] = [:]

    func run(_ name: String, _ fetch: @escaping @Sendable () async throws -> [UInt8]) async throws -> [UInt8] {
        if let task = running[name] { return try await task.value }
        let task = Task { try await fetch() }
        running[name] = task
        defer { running[name] = nil }
        return try await task.value
    }
}
