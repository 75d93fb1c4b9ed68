// fuzz-covers: Exif ImageFormat
// fuzz-seeds: Tests/Fixtures/photos
import FieldhouseKit
import Foundation

// A photo's EXIF as a challenge reply reads it: found in the JPEG, read, and its time and place
// turned into what the page shows.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzExif(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    _ = ImageFormat.sniff(bytes)
    for block in [Exif.jpegBlock(bytes), bytes].compactMap({ $0 }) {
        guard let info = Exif.read(block) else { continue }
        _ = info.capturedAt?.instant(fallbackZone: TimeZone(identifier: "Europe/Lisbon")!)
        if let coordinate = info.coordinate, coordinate.isValid {
            _ = Geo.distance(coordinate, Coordinate(latitude: 55.6761, longitude: 12.5683))
        }
    }
    return 0
}
