import FieldhouseKit
import Foundation
import Testing

/// The libvips pipeline on real files: upright pixels, no metadata left, sizes, HEIC, and refusal
/// of damaged or enormous pictures before they are decoded.
@Suite struct PhotoRendererTests {
    static func fixture(_ name: String) throws -> Data {
        try Data(contentsOf: ImageFormatTests.photos.appendingPathComponent(name))
    }

    /// What a later reader of the bytes finds: the EXIF block, if any survived.
    static func exif(of bytes: [UInt8], format: ImageFormat) throws -> [UInt8]? {
        var sanitizer = try ImageSanitizer(format: format)
        _ = try sanitizer.feed(bytes)
        return try sanitizer.finish().exif
    }

    static func exif(of rendered: PhotoRenderer.Rendered) throws -> [UInt8]? {
        try exif(of: rendered.bytes, format: rendered.format)
    }

    @Test func turnsThePixelsUprightAndDropsTheGPSPosition() throws {
        // 120 × 60 as stored, EXIF orientation 6 (shown turned a quarter clockwise), GPS in EXIF.
        let original = try Self.fixture("rotated_gps.jpg")
        let header = try PhotoRenderer.header(original)
        #expect((header.width, header.height, header.orientation, header.hasAlpha) == (120, 60, 6, false))
        let block = try #require(try Self.exif(of: Array(original), format: .jpeg))
        #expect(Exif.read(block)?.coordinate != nil)

        let served = try PhotoRenderer.render(original, box: 4096, as: .jpeg)
        #expect(served.format == .jpeg)
        #expect((served.width, served.height) == (60, 120))
        #expect(try Self.exif(of: served) == nil)
        let upright = try PhotoRenderer.header(served.bytes)
        #expect((upright.width, upright.height, upright.orientation) == (60, 120, 1))
    }

    @Test func makesSmallerSizesAndSquareThumbnailsButNeverEnlarges() throws {
        let original = try Self.fixture("rotated_gps.jpg")
        let small = try PhotoRenderer.render(original, box: 40, as: .jpeg)
        #expect((small.width, small.height) == (20, 40))
        let square = try PhotoRenderer.render(original, box: 40, square: true, as: .jpeg)
        #expect((square.width, square.height) == (40, 40))
        let large = try PhotoRenderer.render(original, box: 1280, as: .jpeg)
        #expect((large.width, large.height) == (60, 120))
    }

    @Test func keepsPNGAsPNGAndServesWebPAsJPEG() throws {
        for (name, format) in [("geotagged.png", ImageFormat.png), ("geotagged.webp", .webp)] {
            let header = try PhotoRenderer.header(Self.fixture(name))
            let served = PhotoRenderer.servedFormat(for: format, hasAlpha: header.hasAlpha)
            #expect(served == (format == .png ? .png : .jpeg))
            let rendered = try PhotoRenderer.render(Self.fixture(name), box: 4096, as: served)
            #expect(rendered.format == served, "\(name)")
            #expect(ImageFormat.sniff(rendered.bytes) == served, "\(name)")
            #expect((rendered.width, rendered.height) == (64, 48), "\(name)")
            #expect(try Self.exif(of: rendered) == nil, "\(name)")
        }
    }

    @Test func readsHEICAndServesItAsJPEGWithoutMetadata() throws {
        let heic = try Self.fixture("rotated_gps.heic")
        #expect(ImageFormat.sniff(heic) == .heic)
        let header = try PhotoRenderer.header(heic)
        #expect(PhotoRenderer.servedFormat(for: .heic, hasAlpha: header.hasAlpha) == .jpeg)
        let served = try PhotoRenderer.render(heic, box: 4096, as: .jpeg)
        #expect(ImageFormat.sniff(served.bytes) == .jpeg)
        #expect((served.width, served.height) == (120, 60))
        #expect(try Self.exif(of: served) == nil)
    }

    @Test func refusesDamagedAndImpostorFiles() throws {
        let original = try Self.fixture("rotated_gps.jpg")
        #expect(throws: PhotoRenderer.Failure.self) { try PhotoRenderer.render(original.prefix(original.count / 2), box: 160, as: .jpeg) }
        #expect(throws: PhotoRenderer.Failure.self) { try PhotoRenderer.header(Data("<svg xmlns='http://www.w3.org/2000/svg'/>".utf8)) }
        #expect(throws: PhotoRenderer.Failure.self) { try PhotoRenderer.header(Data()) }
        let heic = try Self.fixture("rotated_gps.heic")
        #expect(throws: PhotoRenderer.Failure.self) { try PhotoRenderer.render(heic.prefix(heic.count - 200), box: 160, as: .jpeg) }
    }

    /// A PNG whose header claims 30,000 × 30,000 pixels (900 megapixels) is refused from its header,
    /// before libvips would decode gigabytes.
    @Test func refusesAPictureTooLargeToDecode() throws {
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        let side: [UInt8] = [0, 0, 0x75, 0x30]
        png += Self.chunk("IHDR", side + side + [8, 2, 0, 0, 0])
        png += Self.chunk("IDAT", [0x78, 0x9C, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01])
        png += Self.chunk("IEND", [])
        #expect(throws: PhotoRenderer.Failure.tooLarge(width: 30000, height: 30000)) { try PhotoRenderer.header(png) }
        #expect(throws: PhotoRenderer.Failure.tooLarge(width: 30000, height: 30000)) { try PhotoRenderer.render(png, box: 160, as: .png) }
    }

    /// Found by the fuzzer: 6 KB whose second text chunk claims 1.9 GB. libpng allocated it all before
    /// noticing the file was short; now the chunk walk refuses it first, and a cut-off PNG likewise.
    @Test func refusesAPNGWhoseChunksDoNotFitInTheFile() throws {
        let hostile = try Self.fixture("huge_text_chunk.png")
        #expect(throws: PhotoRenderer.Failure.unreadable("a PNG chunk is longer than the file")) {
            try PhotoRenderer.header(hostile)
        }
        #expect(PhotoRenderer.exif(hostile) == nil)
        let good = try Self.fixture("geotagged.png")
        #expect(throws: PhotoRenderer.Failure.unreadable("the PNG is cut off")) {
            try PhotoRenderer.render(good.prefix(good.count - 6), box: 160, as: .png)
        }
        #expect(try PhotoRenderer.header(good + Data("trailing bytes after IEND".utf8)).width == 64)
    }

    static func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
        let typed = Array(type.utf8) + body
        return bigEndian(UInt32(body.count)) + typed + bigEndian(PNGWriter.crc32(typed))
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }
}
