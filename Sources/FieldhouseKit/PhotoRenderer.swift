import CVips
import Foundation

/// Re-encodes photos with libvips: pixels turned upright by their EXIF orientation, colours
/// converted to sRGB, no metadata of any kind in the result (no EXIF, GPS, XMP, ICC or comments).
/// Avatars and challenge photos are served only in this form.
///
/// The bytes come from strangers, so a picture's size is checked from its header before any pixel
/// is decoded, and libvips is started with its untrusted loaders blocked.
public enum PhotoRenderer {
    /// 40 megapixels (a 7,800 × 5,200 camera) is the largest picture decoded; larger ones would
    /// take hundreds of megabytes while adding nothing a web page can show.
    public static let maxPixels = 40_000_000
    public static let maxSide = 16_384

    public enum Failure: Error, Equatable, Sendable {
        /// libvips could not read the picture (damaged, cut off, or not what its first bytes claim).
        case unreadable(String)
        /// Wider, taller or more pixels than `maxPixels`/`maxSide` allow.
        case tooLarge(width: Int, height: Int)
        /// libvips did not start (a broken installation).
        case unavailable
    }

    public struct Header: Equatable, Sendable {
        public let width: Int
        public let height: Int
        /// EXIF orientation 1–8 (1 when there is none).
        public let orientation: Int
        public let hasAlpha: Bool
    }

    public struct Rendered: Sendable {
        public let bytes: [UInt8]
        public let width: Int
        public let height: Int
        public let format: ImageFormat
    }

    /// Whether libvips started; false only on a broken installation.
    public static var isAvailable: Bool { started }

    private static let started: Bool = fh_vips_start() == 0

    public static func header<Bytes: ContiguousBytes>(_ bytes: Bytes) throws -> Header {
        guard started else { throw Failure.unavailable }
        try checkChunks(bytes)
        var raw = fh_vips_header()
        let status = bytes.withUnsafeBytes { buffer in
            fh_vips_read_header(buffer.baseAddress, buffer.count, &raw)
        }
        guard status == 0 else { throw Failure.unreadable(takeError()) }
        let header = Header(
            width: Int(raw.width), height: Int(raw.height),
            orientation: (1...8).contains(raw.orientation) ? Int(raw.orientation) : 1,
            hasAlpha: raw.has_alpha != 0)
        guard header.width > 0, header.height > 0, header.width <= maxSide, header.height <= maxSide,
            header.width * header.height <= maxPixels
        else { throw Failure.tooLarge(width: header.width, height: header.height) }
        return header
    }

    /// The EXIF block of a picture libvips reads (used for HEIC), at most 64 KiB; nil if none.
    public static func exif<Bytes: ContiguousBytes>(_ bytes: Bytes) -> [UInt8]? {
        guard started, (try? checkChunks(bytes)) != nil else { return nil }
        var out: UnsafeMutableRawPointer?
        var length = 0
        let status = bytes.withUnsafeBytes { buffer in fh_vips_copy_exif(buffer.baseAddress, buffer.count, &out, &length) }
        defer { fh_vips_free(out) }
        guard status == 0, let out, length > 0, length <= 65_536 else { return nil }
        return Array(UnsafeRawBufferPointer(start: out, count: length))
    }

    /// The format a picture is served in: PNG stays PNG (screenshots, drawings) and anything with
    /// transparency becomes PNG; every other photo becomes JPEG. Not WebP: libvips 8.14's WebP
    /// saver keeps the EXIF block even when told to strip it. Not HEIC: only Safari shows it.
    public static func servedFormat(for format: ImageFormat, hasAlpha: Bool) -> ImageFormat {
        format == .png || hasAlpha ? .png : .jpeg
    }

    /// Renders `bytes` to fit a `box`×`box` square (shrinking only), or to fill it exactly when
    /// `square` (cropped from the centre), as PNG when `format` is PNG and JPEG otherwise. Checks
    /// the header first.
    public static func render<Bytes: ContiguousBytes>(
        _ bytes: Bytes, box: Int, square: Bool = false,
        as format: ImageFormat, quality: Int = 82
    ) throws -> Rendered {
        _ = try header(bytes)
        let output: ImageFormat = format == .png ? .png : .jpeg
        let code: Int32 = output == .png ? 1 : 0
        var out: UnsafeMutableRawPointer?
        var length = 0
        var width: Int32 = 0
        var height: Int32 = 0
        let side = Int32(clamping: box)
        let status = bytes.withUnsafeBytes { buffer in
            fh_vips_render(
                buffer.baseAddress, buffer.count, side, side, square ? 1 : 0, code, Int32(clamping: quality),
                &out, &length, &width, &height)
        }
        defer { fh_vips_free(out) }
        guard status == 0, let out, length > 0 else { throw Failure.unreadable(takeError()) }
        let result = Array(UnsafeRawBufferPointer(start: out, count: length))
        return Rendered(bytes: result, width: Int(width), height: Int(height), format: output)
    }

    /// libpng allocates a chunk's whole declared length before reading it, so a few hundred bytes
    /// claiming a 2 GB text chunk cost 2 GB of memory per request. A PNG whose chunks do not fit in
    /// the bytes actually sent is refused before libvips sees it (one linear walk of the chunk headers).
    static func checkChunks<Bytes: ContiguousBytes>(_ bytes: Bytes) throws {
        try bytes.withUnsafeBytes { buffer in
            guard ImageFormat.sniff(buffer.prefix(16)) == .png else { return }
            var offset = 8
            while offset < buffer.count {
                guard buffer.count - offset >= 12 else { throw Failure.unreadable("the PNG is cut off") }
                let length = buffer[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
                let isEnd = buffer[offset + 4..<offset + 8].elementsEqual("IEND".utf8)
                guard length <= buffer.count - offset - 12 else {
                    throw Failure.unreadable("a PNG chunk is longer than the file")
                }
                offset += 12 + length
                if isEnd { return }
            }
            throw Failure.unreadable("the PNG is cut off")
        }
    }

    private static func takeError() -> String {
        guard let text = fh_vips_take_error() else { return "" }
        defer { fh_vips_free(text) }
        return String(cString: text).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
