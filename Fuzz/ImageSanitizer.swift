// fuzz-covers: ImageSanitizer
// fuzz-seeds: Tests/Fixtures/photos
import FieldhouseKit

// A photo upload as it streams in: sniffed, then fed to the sanitiser in uneven pieces (the way a
// network delivers it), finished, and its kept EXIF read.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzImageSanitizer(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let format = ImageFormat.sniff(bytes), var sanitizer = try? ImageSanitizer(format: format) else { return 0 }
    let piece = max(1, Int(bytes.first ?? 7) % 97 + 1)
    var offset = 0
    do {
        while offset < bytes.count {
            let end = min(bytes.count, offset + piece)
            _ = try sanitizer.feed(bytes[offset..<end])
            offset = end
        }
        let result = try sanitizer.finish()
        if let exif = result.exif { _ = Exif.read(exif) }
    } catch {}
    return 0
}
