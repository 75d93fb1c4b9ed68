import _NIOFileSystem
import FieldhouseKit
import Fluent
import Vapor

/// Photo files under `<data>/photos`: `originals/` as received, `served/` without metadata. Names
/// are random; nothing the uploader typed reaches the file system.
enum PhotoStore {
    static func originalPath(_ file: String, config: AppConfig) -> String { config.dataDirectory + "/photos/originals/" + file }
    static func servedPath(_ file: String, config: AppConfig) -> String { config.dataDirectory + "/photos/served/" + file }

    /// Removes the files of these photos (their rows go with the challenge or response).
    static func removeFiles(of photos: [Photo], config: AppConfig) {
        for photo in photos {
            try? FileManager.default.removeItem(atPath: originalPath(photo.originalFile, config: config))
            try? FileManager.default.removeItem(atPath: servedPath(photo.servedFile, config: config))
        }
    }

    /// Deletes photo rows and returns them, for `removeFiles` once the transaction has committed.
    static func deleteRows(_ ids: [UUID], on db: any Database) async throws -> [Photo] {
        guard !ids.isEmpty else { return [] }
        let photos = try await Photo.query(on: db).filter(\.$id ~~ ids).all()
        try await Photo.query(on: db).filter(\.$id ~~ ids).delete()
        return photos
    }
}

/// Receives one photo part of a `StreamedForm`: sniffs the format from the first bytes, writes the
/// original and, through `ImageSanitizer`, the clean copy, both as the bytes arrive.
final class PhotoReceiver: UploadReceiver, @unchecked Sendable {
    struct Received {
        let format: ImageFormat
        let originalFile: String
        let servedFile: String
        let byteCount: Int
        let width: Int?
        let height: Int?
        let exif: ExifInfo?
    }

    private let config: AppConfig
    private let field: String
    private var head: [UInt8] = []
    private var sanitizer: ImageSanitizer?
    private var original: WriteFileHandle?
    private var served: WriteFileHandle?
    private var originalOffset: Int64 = 0
    private var servedOffset: Int64 = 0
    private var names: (original: String, served: String)?
    private(set) var received: Received?

    init(config: AppConfig, field: String) {
        self.config = config
        self.field = field
    }

    /// Reads a streamed form whose `photo` field is a photo; the photo is on disk when this returns.
    static func receiveForm(_ req: Request) async throws -> (form: StreamedForm, photo: PhotoReceiver) {
        let config = req.application.config
        let receiver = PhotoReceiver(config: config, field: "photo")
        // One photo per form: a second `photo` part is not read (one receiver holds one file).
        var handedOut = false
        let form = try await StreamedForm.receive(req, maxBytes: config.maxUploadBytes) { field, _ in
            guard field == "photo", !handedOut else { return nil }
            handedOut = true
            return receiver
        }
        return (form, receiver)
    }

    /// Why there is no photo, for the form's error: nothing chosen, or an empty file.
    func missingMessage(in form: StreamedForm, prompt: String) -> String? {
        guard received == nil else { return nil }
        if let name = form.emptyFiles[field], !name.isEmpty { return "That photo file is empty. Choose another one." }
        return prompt
    }

    func receive(_ chunk: ByteBuffer) async throws {
        if sanitizer == nil {
            head.append(contentsOf: chunk.readableBytesView.prefix(12 - head.count))
            guard head.count >= 12 else {
                // Keep what arrived; it is written once the format is known.
                pendingChunks.append(chunk)
                return
            }
            try await start()
            let waiting = pendingChunks
            pendingChunks = []
            for piece in waiting { try await write(piece) }
        }
        try await write(chunk)
    }

    private var pendingChunks: [ByteBuffer] = []

    private func start() async throws {
        let format = try Self.format(of: head)
        sanitizer = try ImageSanitizer(format: format)
        let base = UUID().uuidString.lowercased()
        let name = base + "." + format.fileExtension
        names = (name, name)
        original = try await FileSystem.shared.openFile(
            forWritingAt: FilePath(PhotoStore.originalPath(name, config: config) + ".part"), options: .newFile(replaceExisting: true))
        served = try await FileSystem.shared.openFile(
            forWritingAt: FilePath(PhotoStore.servedPath(name, config: config) + ".part"), options: .newFile(replaceExisting: true))
    }

    static func format(of head: [UInt8]) throws -> ImageFormat {
        switch ImageFormat.sniff(head) {
        case .heic?:
            throw Abort(.unsupportedMediaType, reason: "HEIC photos cannot be read yet. On an iPhone, choose “Most Compatible” under Settings → Camera → Formats, or share the photo as JPEG.")
        case let format?:
            return format
        case nil:
            throw Abort(.unsupportedMediaType, reason: "That file is not a JPEG, PNG or WebP photo. Choose a photo in one of those formats.")
        }
    }

    /// Bytes waiting to be written. The multipart parser hands over many small pieces; writing
    /// each at once would cost a thread hop per piece, so they are gathered into larger writes.
    private var originalBuffer = ByteBuffer()
    private var servedBuffer: [UInt8] = []
    private static let flushBytes = 128 * 1024

    private func write(_ chunk: ByteBuffer) async throws {
        guard original != nil else { return }
        do {
            servedBuffer += try sanitizer!.feed(chunk.readableBytesView)
        } catch let failure as ImageSanitizer.Failure {
            throw Self.abort(for: failure)
        }
        var chunk = chunk
        originalBuffer.writeBuffer(&chunk)
        if originalBuffer.readableBytes >= Self.flushBytes { try await flush() }
    }

    private func flush() async throws {
        if originalBuffer.readableBytes > 0 {
            try await original!.write(contentsOf: originalBuffer.readableBytesView, toAbsoluteOffset: originalOffset)
            originalOffset += Int64(originalBuffer.readableBytes)
            originalBuffer.clear()
        }
        if !servedBuffer.isEmpty {
            try await served!.write(contentsOf: servedBuffer, toAbsoluteOffset: servedOffset)
            servedOffset += Int64(servedBuffer.count)
            servedBuffer.removeAll(keepingCapacity: true)
        }
    }

    func complete() async throws {
        guard received == nil else { return }
        if sanitizer == nil {
            // Fewer than 12 bytes in all: too short for any photo.
            _ = try Self.format(of: head)
            throw Abort(.unprocessableEntity, reason: "The photo is incomplete; the upload may have been cut off. Try again.")
        }
        try await flush()
        let result: ImageSanitizer.Result
        do { result = try sanitizer!.finish() } catch let failure as ImageSanitizer.Failure {
            throw Self.abort(for: failure)
        }
        guard let served, let names else { throw Abort(.internalServerError, reason: "The photo's files were not open.") }
        for patch in result.patches {
            try await served.write(contentsOf: patch.bytes, toAbsoluteOffset: Int64(patch.offset))
        }
        try await original?.close(makeChangesVisible: true)
        try await served.close(makeChangesVisible: true)
        original = nil
        self.served = nil
        let (originalName, servedName) = names
        try FileManager.default.moveItem(atPath: PhotoStore.originalPath(originalName, config: config) + ".part",
                                         toPath: PhotoStore.originalPath(originalName, config: config))
        try FileManager.default.moveItem(atPath: PhotoStore.servedPath(servedName, config: config) + ".part",
                                         toPath: PhotoStore.servedPath(servedName, config: config))
        received = Received(
            format: sanitizer!.format, originalFile: originalName, servedFile: servedName, byteCount: Int(originalOffset),
            width: result.width, height: result.height, exif: result.exif.flatMap(Exif.read)
        )
    }

    func discard() async {
        try? await original?.close()
        try? await served?.close()
        original = nil
        served = nil
        guard let names else { return }
        for path in [PhotoStore.originalPath(names.original, config: config), PhotoStore.servedPath(names.served, config: config)] {
            try? FileManager.default.removeItem(atPath: path + ".part")
            try? FileManager.default.removeItem(atPath: path)
        }
    }

    private static func abort(for failure: ImageSanitizer.Failure) -> Abort {
        switch failure {
        case .truncated:
            Abort(.unprocessableEntity, reason: "The photo is incomplete; the file may have been cut off while uploading. Try again.")
        case .malformed:
            Abort(.unprocessableEntity, reason: "That photo file is damaged and cannot be shown. Try another photo.")
        }
    }

    /// Saves the received photo's row. Call after `complete`.
    func save(owner: UUID, zone: String, on db: any Database) async throws -> Photo {
        guard let received else { throw Abort(.unprocessableEntity, reason: "Choose a photo to upload.") }
        let photo = Photo()
        photo.$owner.id = owner
        photo.format = received.format.rawValue
        photo.originalFile = received.originalFile
        photo.servedFile = received.servedFile
        photo.byteCount = received.byteCount
        photo.width = received.width
        photo.height = received.height
        photo.orientation = received.exif?.orientation ?? 1
        photo.exifLatitude = received.exif?.coordinate?.latitude
        photo.exifLongitude = received.exif?.coordinate?.longitude
        photo.takenAt = received.exif?.capturedAt?.instant(fallbackZone: TimeZone(identifier: zone) ?? .gmt)
        try await photo.create(on: db)
        return photo
    }
}
