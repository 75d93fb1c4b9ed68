// fuzz-covers: PhotoRenderer
// fuzz-seeds: Tests/Fixtures/photos
import FieldhouseKit

// A picture as the photo pipeline takes it: header first (size limits), then a small thumbnail and
// its EXIF, as avatars, HEIC uploads and `PhotoSizer` do. libvips itself is not instrumented; this
// checks Fieldhouse's side of the boundary (lengths, pointers, freeing) on any bytes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPhotoRenderer(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let format = ImageFormat.sniff(bytes), let header = try? PhotoRenderer.header(bytes) else { return 0 }
    _ = PhotoRenderer.exif(bytes)
    _ = try? PhotoRenderer.render(
        bytes, box: 32, square: size % 2 == 0,
        as: PhotoRenderer.servedFormat(for: format, hasAlpha: header.hasAlpha))
    return 0
}
