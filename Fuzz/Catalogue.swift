// fuzz-covers: Catalogue Language
// fuzz-seeds: Resources/Locales/pt-PT
import FieldhouseKit

// A translation catalogue (.po) as a translator's tool might leave it, then every text in it used
// the way pages use them, and the bytes read as a browser's Accept-Language header.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCatalogue(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    _ = Language.preferred(acceptLanguage: text)
    guard let entries = try? Catalogue.parse(text, file: "fuzz.po") else { return 0 }
    let catalogue = Catalogue(entries: entries)
    Words.install([.ptPT: catalogue])
    Language.$current.withValue(.ptPT) {
        for entry in entries.prefix(50) {
            _ = Catalogue.translate(entry.key, ["a", "b", "c"])
            if let plural = entry.plural {
                for count in [0, 1, 2, -1, Int.max] { _ = Catalogue.translatePlural(entry.key, plural, count, ["x"]) }
            }
        }
    }
    return 0
}
