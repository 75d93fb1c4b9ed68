import FieldhouseKit
import Foundation
import Testing

@Suite struct ExifTests {
    static func photo(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: ImageFormatTests.photos.appendingPathComponent(name)))
    }

    @Test func readsGPSAndCaptureTimeFromABigEndianSonyPhoto() throws {
        let photo = try Self.photo("geotagged_sony.jpg")
        let block = try #require(Exif.jpegBlock(photo))
        let info = try #require(Exif.read(block))
        let point = try #require(info.coordinate)
        #expect(abs(point.latitude - 55.676098) < 1e-5)
        #expect(abs(point.longitude - 12.568337) < 1e-5)
        #expect(info.capturedAt == CaptureTime(year: 2013, month: 4, day: 13, hour: 10, minute: 22, second: 18))
        #expect(info.orientation == 1)
    }

    @Test func readsLittleEndianSouthWestWithOffsetAndOrientation() throws {
        let photo = try Self.photo("geotagged_le.jpg")
        let block = try #require(Exif.jpegBlock(photo))
        let info = try #require(Exif.read(block))
        let point = try #require(info.coordinate)
        // 22° 57' 6.90" S, 43° 12' 37.75" W as written by exiftool.
        #expect(abs(point.latitude - -22.951916) < 1e-5)
        #expect(abs(point.longitude - -43.210487) < 1e-5)
        #expect(info.orientation == 6)
        let time = try #require(info.capturedAt)
        #expect(time.utcOffset == -3 * 3600)
        // 16:45 at UTC−3 is 19:45 UTC, whatever zone is offered as a fallback.
        let instant = try #require(time.instant(fallbackZone: TimeZone(identifier: "Asia/Tokyo")!))
        #expect(instant == ISO8601DateFormatter().date(from: "2026-11-20T19:45:00Z"))
    }

    @Test func photosWithoutGPSHaveNoPlace() throws {
        let canonPhoto = try Self.photo("r_canon.jpg")
        let canonBlock = try #require(Exif.jpegBlock(canonPhoto))
        let canon = try #require(Exif.read(canonBlock))
        #expect(canon.coordinate == nil)
        #expect(canon.capturedAt == CaptureTime(year: 2013, month: 12, day: 17, hour: 14, minute: 4, second: 24))
        let plain = try Self.photo("noexif.jpg")
        #expect(Exif.jpegBlock(plain) == nil)
    }

    @Test func hostileBlocksGiveNothingRatherThanCrash() throws {
        let photo = try Self.photo("geotagged_sony.jpg")
        let real = try #require(Exif.jpegBlock(photo))
        // Every truncation and a run of corrupted bytes must be survivable.
        for length in stride(from: 0, to: real.count, by: 97) {
            _ = Exif.read(Array(real.prefix(length)))
        }
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            var broken = real
            for _ in 0..<20 { broken[Int.random(in: 6..<broken.count, using: &rng)] = UInt8.random(in: 0...255, using: &rng) }
            _ = Exif.read(broken)
        }
        #expect(Exif.read(Array("Exif\0\0MM\0*\0\0\0\u{8}".utf8)) == nil)
        // A GPS IFD whose pointer loops back to IFD0 is ignored.
        #expect(Exif.read(Array("II*\0".utf8) + [8, 0, 0, 0, 1, 0, 0x25, 0x88, 4, 0, 1, 0, 0, 0, 8, 0, 0, 0, 0, 0, 0, 0])?.coordinate == nil)
    }
}

@Suite struct ImageSanitizerTests {
    /// Runs the sanitizer over `bytes` in pieces of `chunk`, applying its patches like the app does.
    static func clean(_ bytes: [UInt8], format: ImageFormat, chunk: Int = 4096) throws -> (bytes: [UInt8], result: ImageSanitizer.Result) {
        var sanitizer = try ImageSanitizer(format: format)
        var output: [UInt8] = []
        var index = 0
        while index < bytes.count {
            output += try sanitizer.feed(bytes[index..<min(bytes.count, index + chunk)])
            index += chunk
        }
        let result = try sanitizer.finish()
        for patch in result.patches { output.replaceSubrange(patch.offset..<patch.offset + patch.bytes.count, with: patch.bytes) }
        return (output, result)
    }

    static func contains(_ haystack: [UInt8], _ needle: String) -> Bool {
        let n = Array(needle.utf8)
        guard haystack.count >= n.count else { return false }
        return (0...(haystack.count - n.count)).contains { haystack[$0..<$0 + n.count].elementsEqual(n) }
    }

    @Test(arguments: [1, 7, 512, 65536])
    func jpegLosesItsEXIFButKeepsTheImageWhateverTheChunkSize(chunk: Int) throws {
        let original = try ExifTests.photo("geotagged_sony.jpg")
        let (clean, result) = try Self.clean(original, format: .jpeg, chunk: chunk)
        #expect(Exif.jpegBlock(clean) == nil)
        #expect(!Self.contains(clean, "Exif") && !Self.contains(clean, "SONY"))
        #expect(result.width == 80 && result.height == 80)
        let captured = try #require(result.exif.flatMap(Exif.read)?.coordinate)
        #expect(abs(captured.latitude - 55.676098) < 1e-5)
        // Image data is untouched: the clean file ends with the same scan as the original.
        let scan = Array(original.suffix(120))
        #expect(Array(clean.suffix(120)) == scan)
        #expect(clean.count == original.count - 40110)
    }

    @Test func jpegXMPAndCommentsGoToo() throws {
        let (clean, result) = try Self.clean(try ExifTests.photo("geotagged_le.jpg"), format: .jpeg)
        #expect(!Self.contains(clean, "Jo Private") && !Self.contains(clean, "hidden comment") && !Self.contains(clean, "Exif"))
        #expect(Self.contains(clean, "JFIF"))
        #expect(result.exif.flatMap(Exif.read)?.orientation == 6)
    }

    @Test func truncatedAndImpostorJPEGsAreRefused() throws {
        let original = try ExifTests.photo("geotagged_sony.jpg")
        for cut in [3, 100, 40_200, original.count - 200, original.count - 1] {
            #expect(throws: ImageSanitizer.Failure.truncated) { try Self.clean(Array(original.prefix(cut)), format: .jpeg) }
        }
        #expect(throws: ImageSanitizer.Failure.self) { try Self.clean(Array("not a picture at all".utf8), format: .jpeg) }
        // Trailing bytes after the end of the image are dropped, not served.
        let (clean, _) = try Self.clean(original + Array("trailer with secrets".utf8), format: .jpeg)
        #expect(!Self.contains(clean, "secrets"))
    }

    @Test func pngLosesEXIFAndTextChunks() throws {
        let original = try ExifTests.photo("geotagged.png")
        let (clean, result) = try Self.clean(original, format: .png, chunk: 333)
        #expect(!Self.contains(clean, "eXIf") && !Self.contains(clean, "tEXt") && !Self.contains(clean, "Jo Private"))
        #expect(Self.contains(clean, "IDAT") && Self.contains(clean, "IEND"))
        #expect(result.width == 64 && result.height == 48)
        let point = try #require(result.exif.flatMap(Exif.read)?.coordinate)
        #expect(abs(point.latitude - 48.85837) < 1e-5 && abs(point.longitude - 2.294481) < 1e-5)
        // The clean PNG is exactly the plain picture's chunks: signature, IHDR, IDAT…, IEND.
        #expect(throws: ImageSanitizer.Failure.truncated) { try Self.clean(Array(original.dropLast(12)), format: .png) }
    }

    @Test func webpLosesEXIFAndXMPAndStaysAValidRIFF() throws {
        let original = try ExifTests.photo("geotagged.webp")
        let (clean, result) = try Self.clean(original, format: .webp, chunk: 100)
        #expect(!Self.contains(clean, "EXIF") && !Self.contains(clean, "XMP ") && !Self.contains(clean, "Jo Private"))
        let riffSize = Int(clean[4]) | Int(clean[5]) << 8 | Int(clean[6]) << 16 | Int(clean[7]) << 24
        #expect(riffSize == clean.count - 8)
        // VP8X flags no longer announce EXIF or XMP.
        #expect(clean[12..<16].elementsEqual("VP8X".utf8))
        #expect(clean[20] & 0x0C == 0)
        #expect(result.width == 64 && result.height == 48)
        let point = try #require(result.exif.flatMap(Exif.read)?.coordinate)
        #expect(abs(point.latitude - -33.856784) < 1e-5 && abs(point.longitude - 151.215297) < 1e-5)
        #expect(throws: ImageSanitizer.Failure.truncated) { try Self.clean(Array(original.prefix(original.count / 2)), format: .webp) }
    }
}

@Suite struct PNGWriterTests {
    @Test func writesAPNGThatReadsBack() throws {
        let png = PNGWriter.rgb(width: 300, height: 250) { x, y in (UInt8(x % 256), UInt8(y % 256), 90) }
        #expect(ImageFormat.sniff(png) == .png)
        let (_, result) = try ImageSanitizerTests.clean(png, format: .png)
        #expect(result.width == 300 && result.height == 250)
        // The CRC check value from the PNG specification's sample: "IEND" with no data.
        #expect(PNGWriter.crc32(Array("IEND".utf8)) == 0xAE42_6082)
    }
}
