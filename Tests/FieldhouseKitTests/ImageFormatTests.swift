import FieldhouseKit
import Foundation
import Testing

@Suite struct ImageFormatTests {
    static let photos = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/photos")

    @Test func recognisesRealJPEGsByTheirBytes() throws {
        for name in ["noexif.jpg", "geotagged_sony.jpg"] {
            let data = try Data(contentsOf: Self.photos.appendingPathComponent(name))
            #expect(ImageFormat.sniff(data) == .jpeg, "\(name)")
        }
    }

    @Test func refusesEmptyFilesAndImpostors() throws {
        let empty = try Data(contentsOf: Self.photos.appendingPathComponent("notjpeg.jpg"))
        #expect(ImageFormat.sniff(empty) == nil)
        #expect(ImageFormat.sniff(Array("GIF89a....".utf8)) == nil)
        #expect(ImageFormat.sniff(Array("<html><body>".utf8)) == nil)
        #expect(ImageFormat.sniff([0xFF, 0xD8]) == nil)
    }

    @Test func recognisesPNGWebPAndHEICHeaders() {
        #expect(ImageFormat.sniff([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]) == .png)
        #expect(ImageFormat.sniff(Array("RIFF".utf8) + [1, 2, 3, 4] + Array("WEBP".utf8)) == .webp)
        #expect(ImageFormat.sniff(Array("RIFF".utf8) + [1, 2, 3, 4] + Array("WAVE".utf8)) == nil)
        #expect(ImageFormat.sniff([0, 0, 0, 24] + Array("ftypheic".utf8)) == .heic)
    }
}
