// fuzz-covers: LearnDocument Markdown
// fuzz-seeds: Resources/Learn
import FieldhouseKit

// A Learn article file: front matter and text read, then the Markdown rendered as the page does.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLearn(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    guard let document = try? LearnDocument(parsing: text) else { return 0 }
    _ = LearnDocument.slug(from: document.title)
    _ = Markdown.html(document.body)
    return 0
}
