import FieldhouseKit
import Vapor

/// Avatar files under `<data>/avatars`, named randomly: a name the uploader chose never reaches
/// the file system.
enum AvatarStore {
    static func path(of file: String, config: AppConfig) -> String {
        config.dataDirectory + "/avatars/" + file
    }

    static func format(ofFile file: String) -> ImageFormat? {
        switch file.split(separator: ".").last {
        case "jpg": .jpeg
        case "png": .png
        case "webp": .webp
        default: nil
        }
    }

    /// Checks the bytes and writes them; returns the new file name.
    static func save(_ bytes: ByteBuffer, on req: Request) async throws -> String {
        guard bytes.readableBytes > 0 else {
            throw Abort(.unprocessableEntity, reason: "Choose a picture to upload; the file was empty.")
        }
        let head = bytes.getBytes(at: bytes.readerIndex, length: min(12, bytes.readableBytes)) ?? []
        let format = ImageFormat.sniff(head)
        if format == .heic {
            throw Abort(.unsupportedMediaType, reason: "HEIC photos cannot be used yet. On an iPhone, choose the photo with “Most Compatible” format, or save it as JPEG first.")
        }
        guard let format else {
            throw Abort(.unsupportedMediaType, reason: "That file is not a JPEG, PNG or WebP picture. Choose a photo in one of those formats.")
        }
        let name = UUID().uuidString.lowercased() + "." + format.fileExtension
        let final = path(of: name, config: req.application.config)
        // Write to a temporary name and rename, so a crash never leaves half a picture in place.
        let temporary = final + ".part"
        try await req.fileio.writeFile(bytes, at: temporary)
        try FileManager.default.moveItem(atPath: temporary, toPath: final)
        return name
    }

    static func remove(_ file: String?, config: AppConfig) {
        guard let file else { return }
        try? FileManager.default.removeItem(atPath: path(of: file, config: config))
    }
}
