// fuzz-covers: MultipartScanner
// fuzz-seeds: Fuzz/seeds/multipart
// fuzz-sources: Sources/App/Core/MultipartScanner.swift
// fuzz-links: NIOCore
import NIOCore

// An upload's body as the streamed forms read it: the first byte picks how the bytes are cut into
// chunks (the network decides that), the rest is the body with the boundary "XyZ". Every event is
// consumed as `StreamedForm` would: headers read, body slices counted.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMultipart(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let piece = Int(data[0]) % 64 + 1
    let body = UnsafeBufferPointer(start: data + 1, count: size - 1)
    var scanner = MultipartScanner(boundary: "XyZ")
    var offset = 0
    var received = 0
    do {
        while offset < body.count {
            let end = min(body.count, offset + piece)
            var chunk = ByteBuffer()
            chunk.writeBytes(UnsafeBufferPointer(rebasing: body[offset..<end]))
            for event in try scanner.scan(chunk) {
                switch event {
                case .part(let headers): _ = headers["content-disposition"]?.split(separator: ";")
                case .body(let slice): received += slice.readableBytes
                case .end: break
                }
            }
            offset = end
        }
    } catch {}
    precondition(received <= body.count, "more body bytes came out than went in")
    return 0
}
