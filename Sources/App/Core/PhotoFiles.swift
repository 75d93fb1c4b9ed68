import FieldhouseKit
import Foundation
import NIOPosix
import Vapor

/// What avatars and challenge photos share once libvips has made their bytes: putting a file in
/// place, and telling a person why a picture was refused.
enum PhotoFiles {
    /// Decoding runs here, one picture at a time, not on the shared blocking pool: that pool also
    /// serves files and checks passwords, and two large pictures must not stall sign-ins.
    static func render<T: Sendable>(on app: Application, _ work: @escaping @Sendable () throws -> T) async throws -> T {
        // The pool's threads have no task-locals: the messages `work` may throw keep the request's reader.
        let reader = Reader.current
        return try await app.photoThreadPool.runIfActive { try reader.write { try work() } }
    }

    /// Writes `bytes` under a temporary name and renames it into place, so a reader never sees half
    /// a picture and a crash never leaves one.
    static func writeAtomically(_ bytes: [UInt8], to path: String) throws {
        // A name of its own: two requests may write the same file at once (a map tile).
        let temporary = path + "." + UUID().uuidString + ".part"
        guard FileManager.default.createFile(atPath: temporary, contents: Data(bytes)) else {
            throw Abort(.internalServerError, reason: "Could not write a picture file.")
        }
        // rename(2) replaces an existing file in one step.
        guard rename(temporary, path) == 0 else {
            try? FileManager.default.removeItem(atPath: temporary)
            throw Abort(.internalServerError, reason: "Could not put a picture file in place.")
        }
    }

    static func tooLarge(width: Int, height: Int) -> Abort {
        Abort(
            .unprocessableEntity,
            reason:
                t(
                    "That picture is {width} × {height} pixels; the largest accepted is {megapixels} megapixels and {side} pixels a side. Choose a smaller photo.",
                    width, height, PhotoRenderer.maxPixels / 1_000_000, PhotoRenderer.maxSide)
        )
    }

    /// The answer for a picture libvips refused.
    static func abort(for failure: PhotoRenderer.Failure, format: ImageFormat) -> Abort {
        switch failure {
        case .tooLarge(let width, let height):
            tooLarge(width: width, height: height)
        case .unreadable where format == .heic:
            Abort(
                .unprocessableEntity,
                reason: t("That HEIC photo is damaged or of a kind that cannot be read. On an iPhone, share it as JPEG (“Most Compatible”) and try again."))
        case .unreadable:
            Abort(.unprocessableEntity, reason: t("That picture is damaged or cut off and cannot be shown. Try another one."))
        case .unavailable:
            Abort(.serviceUnavailable, reason: t("Pictures cannot be processed on this server right now. Try again later."))
        }
    }

    /// Refuses a picture with more pixels than `PhotoRenderer` decodes, before it is stored.
    static func checkPixels(width: Int?, height: Int?) throws {
        guard let width, let height else { return }
        if width > PhotoRenderer.maxSide || height > PhotoRenderer.maxSide || width * height > PhotoRenderer.maxPixels {
            throw tooLarge(width: width, height: height)
        }
    }

    static var notAPicture: String { t("That file is not a JPEG, PNG, WebP or HEIC picture. Choose a photo in one of those formats.") }
}

extension Application {
    private struct PhotoThreadPoolKey: StorageKey { typealias Value = NIOThreadPool }

    /// One thread for libvips; started by `configure`, stopped by `BackgroundWorkLifecycle`.
    var photoThreadPool: NIOThreadPool {
        get { storage[PhotoThreadPoolKey.self]! }
        set { storage[PhotoThreadPoolKey.self] = newValue }
    }
}
