/// Image formats recognised by their first bytes, never by a file name or a client's Content-Type.
public enum ImageFormat: String, Sendable {
    case jpeg, png, webp, heic

    public var mimeType: String {
        switch self {
        case .jpeg: "image/jpeg"
        case .png: "image/png"
        case .webp: "image/webp"
        case .heic: "image/heic"
        }
    }

    public var fileExtension: String { self == .jpeg ? "jpg" : rawValue }

    /// Looks at the magic numbers of the first 12 bytes; returns nil for anything else.
    public static func sniff<Bytes: Collection>(_ bytes: Bytes) -> ImageFormat? where Bytes.Element == UInt8 {
        let head = Array(bytes.prefix(12))
        guard head.count >= 4 else { return nil }
        if head.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if head.count >= 8, head.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if head.count == 12, head.starts(with: Array("RIFF".utf8)), Array(head[8..<12]) == Array("WEBP".utf8) { return .webp }
        if head.count == 12, Array(head[4..<8]) == Array("ftyp".utf8) {
            let brand = String(decoding: head[8..<12], as: UTF8.self)
            if ["heic", "heix", "mif1", "msf1", "heim", "heis"].contains(brand) { return .heic }
        }
        return nil
    }
}
