import FieldhouseKit
import Fluent
import Vapor

/// Re-encodes photos after their upload has been answered: from the original it makes the served
/// copy (upright, sRGB, no metadata, at most 4,096 px), a 1,280 px copy for pages and a 160 px
/// square for lists, then marks the photo `ready`. Until then the metadata-free copy made while
/// uploading is served at every size, so nothing waits for this.
///
/// One photo at a time, on the application's thread pool: a burst of uploads never takes both
/// cores from requests. The queue is the `sizes = pending` rows, so a restart loses nothing:
/// `catchUp` picks up what was left (and every photo stored before this existed).
actor PhotoSizer {
    private weak var application: Application?
    private var queue: [UUID] = []
    private var worker: Task<Void, Never>?
    private var stopped = false

    /// The full copy's long side: what a phone's screen or a desktop window can use, no more.
    static let fullBox = 4096

    init(application: Application) {
        self.application = application
    }

    func enqueue(_ ids: [UUID]) {
        guard !stopped, !ids.isEmpty else { return }
        queue += ids
        if worker == nil {
            worker = Task { await self.drain() }
        }
    }

    /// Queues every photo still `pending`.
    func catchUp() async throws {
        guard let db = application?.db else { return }
        let ids = try await Photo.query(on: db).filter(\.$sizes == .pending).sort(\.$createdAt).all(\.$id)
        enqueue(ids)
    }

    /// Returns once the queue is empty (tests wait for this before asking for sizes).
    func idle() async {
        while let worker { await worker.value }
    }

    /// Stops taking work and waits for the photo in hand, before the database goes away.
    func stop() async {
        stopped = true
        queue = []
        await idle()
    }

    private func drain() async {
        while !queue.isEmpty, !stopped {
            let id = queue.removeFirst()
            await size(id)
        }
        worker = nil
    }

    private func size(_ id: UUID) async {
        guard let app = application else { return }
        let logger = app.logger
        do {
            guard let photo = try await Photo.find(id, on: app.db), photo.sizes == .pending else { return }
            let config = app.config
            let original = PhotoStore.originalPath(photo.originalFile, config: config)
            let base = String(photo.servedFile.prefix { $0 != "." })
            let made: Made
            do {
                made = try await PhotoFiles.render(on: app) { try Self.render(original: original, base: base, config: config) }
            } catch let failure as PhotoRenderer.Failure {
                logger.warning("Photo \(id) could not be re-encoded; its metadata-free copy stays: \(failure)")
                try await Photo.query(on: app.db).filter(\.$id == id).set(\.$sizes, to: .failed).update()
                return
            }
            try await Photo.query(on: app.db).filter(\.$id == id)
                .set(\.$sizes, to: .ready).set(\.$servedFile, to: made.servedFile).set(\.$format, to: made.format.rawValue)
                .set(\.$orientation, to: 1).set(\.$width, to: made.width).set(\.$height, to: made.height)
                .update()
            if made.servedFile != photo.servedFile {
                try? FileManager.default.removeItem(atPath: PhotoStore.servedPath(photo.servedFile, config: config))
            }
            // Deleted while this ran: its files were removed before these were written.
            if try await Photo.find(id, on: app.db) == nil {
                photo.servedFile = made.servedFile
                PhotoStore.removeFiles(of: [photo], config: config)
            }
        } catch {
            logger.error("Photo \(id) was not re-encoded; it stays pending for the next start: \(error)")
        }
    }

    private struct Made: Sendable {
        let servedFile: String
        let format: ImageFormat
        let width: Int
        let height: Int
    }

    /// Writes the three copies and returns the full copy's name and size. Runs on the thread pool.
    private static func render(original: String, base: String, config: AppConfig) throws -> Made {
        guard let data = FileManager.default.contents(atPath: original) else {
            throw PhotoRenderer.Failure.unreadable("the original file is missing")
        }
        let header = try PhotoRenderer.header(data)
        let format = PhotoRenderer.servedFormat(for: ImageFormat.sniff(data.prefix(12)) ?? .jpeg, hasAlpha: header.hasAlpha)
        let name = base + "." + format.fileExtension
        // Sizes first: the row points at them only once all three exist.
        for size in Photo.Size.allCases {
            let copy = try PhotoRenderer.render(data, box: size.box, square: size == .small, as: format)
            try PhotoFiles.writeAtomically(copy.bytes, to: PhotoStore.sizePath(name, size, config: config))
        }
        let full = try PhotoRenderer.render(data, box: fullBox, as: format)
        try PhotoFiles.writeAtomically(full.bytes, to: PhotoStore.servedPath(name, config: config))
        return Made(servedFile: name, format: format, width: full.width, height: full.height)
    }
}

extension Application {
    private struct PhotoSizerKey: StorageKey {
        typealias Value = PhotoSizer
    }

    /// Set once by `configure`.
    var photoSizer: PhotoSizer {
        get { storage[PhotoSizerKey.self]! }
        set { storage[PhotoSizerKey.self] = newValue }
    }
}
