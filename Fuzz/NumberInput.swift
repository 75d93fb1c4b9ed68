// fuzz-covers: NumberInput
// fuzz-seeds: Fuzz/seeds/numbers
import FieldhouseKit

// A number typed into a form, read as every form reads it, then used the way forms use it.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzNumberInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    if case .value(let value) = NumberInput.read(text) {
        precondition(value.isFinite, "\(text) read as \(value)")
        _ = Int(exactly: value.rounded())
    }
    return 0
}
