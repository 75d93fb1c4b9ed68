import FieldhouseKit
import Fluent
import Vapor

/// Avatar files under `<data>/avatars`, named randomly: a name the uploader chose never reaches
/// the file system. What is stored is never the upload itself: libvips turns it upright, crops it
/// to a square of `side` pixels and re-encodes it with no metadata (no camera, time or GPS).
enum AvatarStore {
    /// Shown at most 160 CSS pixels wide, so 400 is sharp on a phone's screen.
    static let side = 400
    /// Marks a re-encoded file; avatars stored before re-encoding existed lack it (see `catchUp`).
    static let suffix = "-sq"

    /// The folder under the data directory (`Accounts.dataFolders`).
    static let folder = "avatars"

    static func path(of file: String, config: AppConfig) -> String {
        config.dataDirectory + "/" + folder + "/" + file
    }

    /// The served format of a stored avatar, from its name (which this store chose).
    static func format(ofFile file: String) -> ImageFormat? {
        guard file.contains(suffix + ".") else { return nil }
        switch file.split(separator: ".").last {
        case "jpg": return .jpeg
        case "png": return .png
        default: return nil
        }
    }

    /// Checks and re-encodes the bytes and writes them; returns the new file name.
    static func save(_ bytes: ByteBuffer, on req: Request) async throws -> String {
        guard bytes.readableBytes > 0 else {
            throw Abort(.unprocessableEntity, reason: t("Choose a picture to upload; the file was empty."))
        }
        let head = bytes.getBytes(at: bytes.readerIndex, length: min(12, bytes.readableBytes)) ?? []
        guard let format = ImageFormat.sniff(head) else {
            throw Abort(.unsupportedMediaType, reason: PhotoFiles.notAPicture)
        }
        let data = Data(buffer: bytes)
        let config = req.application.config
        return try await PhotoFiles.render(on: req.application) {
            do {
                return try reencode(data, format: format, config: config)
            } catch let failure as PhotoRenderer.Failure {
                throw PhotoFiles.abort(for: failure, format: format)
            }
        }
    }

    private static func reencode(_ data: Data, format: ImageFormat, config: AppConfig) throws -> String {
        let header = try PhotoRenderer.header(data)
        let rendered = try PhotoRenderer.render(
            data, box: side, square: true,
            as: PhotoRenderer.servedFormat(for: format, hasAlpha: header.hasAlpha))
        let name = UUID().uuidString.lowercased() + suffix + "." + rendered.format.fileExtension
        try PhotoFiles.writeAtomically(rendered.bytes, to: path(of: name, config: config))
        return name
    }

    static func remove(_ file: String?, config: AppConfig) {
        guard let file else { return }
        try? FileManager.default.removeItem(atPath: path(of: file, config: config))
    }

    /// Re-encodes avatars stored as uploaded (before this store re-encoded them), so none still
    /// carries its EXIF. One that cannot be read is removed: it was never shown correctly either.
    static func catchUp(_ app: Application) async throws {
        let config = app.config
        let people = try await User.query(on: app.db).filter(\.$avatarFile != nil).all()
        for person in people {
            guard let old = person.avatarFile, format(ofFile: old) == nil else { continue }
            let name: String? = try await PhotoFiles.render(on: app) {
                guard let data = FileManager.default.contents(atPath: path(of: old, config: config)),
                    let format = ImageFormat.sniff(data.prefix(12))
                else { return nil }
                return try? reencode(data, format: format, config: config)
            }
            try await User.query(on: app.db).filter(\.$id == person.requireID()).set(\.$avatarFile, to: name).update()
            try await app.personChanges.changed(person.requireID(), bus: app.liveBus, on: app.db)
            remove(old, config: config)
        }
    }
}
