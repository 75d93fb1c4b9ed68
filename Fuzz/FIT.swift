// fuzz-covers: FITReader ActivityRecording WorkoutSummary SpeedSpikes
// fuzz-seeds: Tests/Fixtures/fit
// fuzz-sources: Fuzz/Support/PageSteps.swift Sources/App/Core/SVGChart.swift Sources/App/Core/SVGChart+Thinning.swift Sources/App/Core/SVGMap.swift Sources/App/Core/MapTiles.swift Sources/App/Core/AttributeJSON.swift Sources/App/Core/Tenths.swift Sources/App/Core/Format.swift Sources/App/Core/Counted.swift
import FieldhouseKit

// A FIT upload as the importer reads it, then summarised and drawn as the workout page draws it.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFIT(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard case .activity(let recording)? = try? ActivityFile.read(bytes, expandedLimit: 1 << 20) else { return 0 }
    summariseAndDraw(recording)
    return 0
}
