// fuzz-covers: Gzip
// fuzz-seeds: Fuzz/seeds/gzip
// fuzz-sources: Fuzz/Support/PageSteps.swift Sources/App/Core/SVGChart.swift Sources/App/Core/SVGChart+Thinning.swift Sources/App/Core/SVGMap.swift Sources/App/Core/MapTiles.swift Sources/App/Core/AttributeJSON.swift Sources/App/Core/Tenths.swift Sources/App/Core/Format.swift Sources/App/Core/Counted.swift
import FieldhouseKit

// A .gz upload: unpacked within a limit (once; a gzip inside is refused), read and drawn.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGzip(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var bytes = Array(UnsafeBufferPointer(start: data, count: size))
    // Most inputs libFuzzer makes would not start with the gzip magic; give every one a chance.
    if !Gzip.isCompressed(bytes) { bytes = [0x1F, 0x8B] + bytes }
    guard case .activity(let recording)? = try? ActivityFile.read(bytes, expandedLimit: 1 << 20) else { return 0 }
    summariseAndDraw(recording)
    return 0
}
