import _NIOFileSystem
import FieldhouseKit
import Fluent
import Vapor

/// Photo files under `<data>/photos`: `originals/` as received, `served/` without metadata, and
/// `large/` and `small/` (see `Photo.Size`), named like the served copy. Names are random; nothing
/// the uploader typed reaches the file system.
enum PhotoStore {
    /// The folders under the data directory (`Challenges.dataFolders`).
    static let folders = ["photos/originals", "photos/served"] + Photo.Size.allCases.map { "photos/" + $0.rawValue }

    static func originalPath(_ file: String, config: AppConfig) -> String { config.dataDirectory + "/photos/originals/" + file }
    static func servedPath(_ file: String, config: AppConfig) -> String { config.dataDirectory + "/photos/served/" + file }
    static func sizePath(_ file: String, _ size: Photo.Size, config: AppConfig) -> String {
        config.dataDirectory + "/photos/" + size.rawValue + "/" + file
    }

    /// Every file a photo may have, whether or not it has been made yet, under each name its copies
    /// can have had: re-encoding may change the extension (WebP becomes JPEG) while a deletion runs.
    static func paths(of photo: Photo, config: AppConfig) -> [String] {
        let base = String(photo.servedFile.prefix { $0 != "." })
        let names = ["jpg", "png", "webp"].map { base + "." + $0 }
        return [originalPath(photo.originalFile, config: config)]
            + names.flatMap { name in [servedPath(name, config: config)] + Photo.Size.allCases.map { sizePath(name, $0, config: config) } }
    }

    /// Removes the files of these photos (their rows go with the challenge or response).
    static func removeFiles(of photos: [Photo], config: AppConfig) {
        for path in photos.flatMap({ paths(of: $0, config: config) }) {
            try? FileManager.default.removeItem(atPath: path)
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
/// original and, through `ImageSanitizer`, the metadata-free copy, both as the bytes arrive. HEIC,
/// which the sanitizer cannot read, is turned into a JPEG by libvips once it has arrived. Either
/// way `PhotoSizer` later re-encodes the copy upright and makes the smaller sizes.
final class PhotoReceiver: UploadReceiver, @unchecked Sendable {
    struct Received {
        /// The served copy's format (HEIC arrives as JPEG).
        let format: ImageFormat
        let originalFile: String
        let servedFile: String
        let byteCount: Int
        let width: Int?
        let height: Int?
        let exif: ExifInfo?
        /// HEIC made into an upright JPEG on arrival: its EXIF orientation no longer applies.
        var converted = false
    }

    let config: AppConfig
    /// Set when the photo is one held from an earlier try of the same form (`HeldPhoto`).
    private(set) var heldKey: String?
    private let field: String
    private var head: [UInt8] = []
    private var format: ImageFormat?
    /// Nil for HEIC, which is converted once complete.
    private var sanitizer: ImageSanitizer?
    private var original: WriteFileHandle?
    private var served: WriteFileHandle?
    private var originalOffset: Int64 = 0
    private var servedOffset: Int64 = 0
    private var names: (original: String, served: String)?
    private(set) var received: Received?

    private let application: Application

    init(application: Application, field: String) {
        self.application = application
        self.config = application.config
        self.field = field
    }

    /// Reads a streamed form whose `photo` field is a photo; the photo is on disk when this returns.
    static func receiveForm(_ req: Request) async throws -> (form: StreamedForm, photo: PhotoReceiver) {
        let config = req.application.config
        let receiver = PhotoReceiver(application: req.application, field: "photo")
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
        if let name = form.emptyFiles[field], !name.isEmpty { return t("That photo file is empty. Choose another one.") }
        return prompt
    }

    func receive(_ chunk: ByteBuffer) async throws {
        if format == nil {
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
        self.format = format
        let base = UUID().uuidString.lowercased()
        let name = base + "." + format.fileExtension
        original = try await FileSystem.shared.openFile(
            forWritingAt: FilePath(PhotoStore.originalPath(name, config: config) + ".part"), options: .newFile(replaceExisting: true))
        if format == .heic {
            names = (name, base + "." + ImageFormat.jpeg.fileExtension)
            return
        }
        names = (name, name)
        sanitizer = try ImageSanitizer(format: format)
        served = try await FileSystem.shared.openFile(
            forWritingAt: FilePath(PhotoStore.servedPath(name, config: config) + ".part"), options: .newFile(replaceExisting: true))
    }

    static func format(of head: [UInt8]) throws -> ImageFormat {
        guard let format = ImageFormat.sniff(head) else {
            throw Abort(.unsupportedMediaType, reason: PhotoFiles.notAPicture)
        }
        return format
    }

    /// Bytes waiting to be written. The multipart parser hands over many small pieces; writing
    /// each at once would cost a thread hop per piece, so they are gathered into larger writes.
    private var originalBuffer = ByteBuffer()
    private var servedBuffer: [UInt8] = []
    private static let flushBytes = 128 * 1024

    private func write(_ chunk: ByteBuffer) async throws {
        guard original != nil else { return }
        if sanitizer != nil {
            do {
                servedBuffer += try sanitizer!.feed(chunk.readableBytesView)
            } catch let failure as ImageSanitizer.Failure {
                throw Self.abort(for: failure)
            }
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
        if !servedBuffer.isEmpty, let served {
            try await served.write(contentsOf: servedBuffer, toAbsoluteOffset: servedOffset)
            servedOffset += Int64(servedBuffer.count)
            servedBuffer.removeAll(keepingCapacity: true)
        }
    }

    func complete() async throws {
        guard received == nil else { return }
        guard let format, let names else {
            // Fewer than 12 bytes in all: too short for any photo.
            _ = try Self.format(of: head)
            throw Abort(.unprocessableEntity, reason: t("The photo is incomplete; the upload may have been cut off. Try again."))
        }
        try await flush()
        try await original?.close(makeChangesVisible: true)
        original = nil
        let originalPath = PhotoStore.originalPath(names.original, config: config)
        try FileManager.default.moveItem(atPath: originalPath + ".part", toPath: originalPath)
        if format == .heic {
            let converted = try await convertHEIC(at: originalPath, servedName: names.served)
            self.names = (names.original, converted.servedFile)
            received = converted
            return
        }
        let result: ImageSanitizer.Result
        do { result = try sanitizer!.finish() } catch let failure as ImageSanitizer.Failure {
            throw Self.abort(for: failure)
        }
        try PhotoFiles.checkPixels(width: result.width, height: result.height)
        guard let served else { throw Abort(.internalServerError, reason: "The photo's files were not open.") }
        for patch in result.patches {
            try await served.write(contentsOf: patch.bytes, toAbsoluteOffset: Int64(patch.offset))
        }
        try await served.close(makeChangesVisible: true)
        self.served = nil
        let servedPath = PhotoStore.servedPath(names.served, config: config)
        try FileManager.default.moveItem(atPath: servedPath + ".part", toPath: servedPath)
        received = Received(
            format: format, originalFile: names.original, servedFile: names.served, byteCount: Int(originalOffset),
            width: result.width, height: result.height, exif: result.exif.flatMap(Exif.read)
        )
    }

    /// Browsers other than Safari cannot show HEIC, so the served copy is made now, as JPEG (about
    /// a quarter of a second for a 12-megapixel iPhone photo), off the event loop.
    private func convertHEIC(at path: String, servedName: String) async throws -> Received {
        let config = config
        let byteCount = Int(originalOffset)
        return try await PhotoFiles.render(on: application) {
            guard let data = FileManager.default.contents(atPath: path) else {
                throw Abort(.internalServerError, reason: "The photo was not stored.")
            }
            let rendered: PhotoRenderer.Rendered
            do {
                let header = try PhotoRenderer.header(data)
                rendered = try PhotoRenderer.render(
                    data, box: PhotoSizer.fullBox,
                    as: PhotoRenderer.servedFormat(for: .heic, hasAlpha: header.hasAlpha))
            } catch let failure as PhotoRenderer.Failure {
                throw PhotoFiles.abort(for: failure, format: .heic)
            }
            let name = String(servedName.prefix { $0 != "." }) + "." + rendered.format.fileExtension
            try PhotoFiles.writeAtomically(rendered.bytes, to: PhotoStore.servedPath(name, config: config))
            return Received(
                format: rendered.format, originalFile: (path as NSString).lastPathComponent, servedFile: name,
                byteCount: byteCount, width: rendered.width, height: rendered.height,
                exif: PhotoRenderer.exif(data).flatMap(Exif.read), converted: true)
        }
    }

    /// Takes a photo received by an earlier request (a held one) as this form's photo.
    func adopt(_ photo: Received, heldKey: String) {
        received = photo
        self.heldKey = heldKey
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
            Abort(.unprocessableEntity, reason: t("The photo is incomplete; the file may have been cut off while uploading. Try again."))
        case .malformed:
            Abort(.unprocessableEntity, reason: t("That photo file is damaged and cannot be shown. Try another photo."))
        }
    }

    /// Saves the received photo's row. Call after `complete`.
    func save(owner: UUID, zone: String, now: Date, on db: any Database) async throws -> Photo {
        guard let received else { throw Abort(.unprocessableEntity, reason: t("Choose a photo to upload.")) }
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
        photo.takenAt = received.exif?.capturedAt?.instant(fallbackZone: TimeZone.named(zone), now: now)
        // HEIC's copy was rendered upright from the start; the sizes still come later.
        if received.converted { photo.orientation = 1 }
        photo.sizes = .pending
        try await photo.create(on: db)
        return photo
    }
}
