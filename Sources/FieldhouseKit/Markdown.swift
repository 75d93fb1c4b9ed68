import CDiscount

/// Markdown to HTML through the Discount C library.
///
/// Raw HTML is always disabled and link protocols are checked (`javascript:` and friends are
/// refused), because everything rendered here may have been typed by a user.
public enum Markdown {
    /// What is rendered: an article (headings with ids for its table of contents, footnotes,
    /// pictures) or a message among many on one page, whose headings must not bring ids that
    /// clash with the page's or each other's, and which shows no pictures.
    public enum Kind: Sendable {
        case article, message
    }

    public static func html(_ source: String, as kind: Kind = .article) -> String {
        // Discount keeps global state while compiling; one document at a time keeps it safe.
        lock.withLock { () -> String in render(source, flags: kind == .article ? articleFlags : messageFlags) }
    }

    private static func render(_ source: String, flags: mkd_flag_t) -> String {
        var bytes: [CChar] = source.utf8.map { CChar(bitPattern: $0) }
        guard !bytes.isEmpty else { return "" }
        let count = Int32(bytes.count)
        guard let document = mkd_string(&bytes, count, flags) else { return "" }
        defer { mkd_cleanup(document) }
        guard mkd_compile(document, flags) != 0 else { return "" }
        var output: UnsafeMutablePointer<CChar>? = nil
        let length = mkd_document(document, &output)
        guard length > 0, let output else { return "" }
        let raw = UnsafeRawBufferPointer(start: UnsafeRawPointer(output), count: Int(length))
        return String(decoding: raw, as: UTF8.self)
    }

    private static let lock = SimpleLock()

    private static let articleFlags = combine([
        MKD_NOHTML, MKD_SAFELINK, MKD_AUTOLINK, MKD_FENCEDCODE, MKD_EXTRA_FOOTNOTE, MKD_TOC, MKD_IDANCHOR, MKD_NOHEADER, MKD_NOSTYLE,
    ])
    private static let messageFlags = combine([MKD_NOHTML, MKD_SAFELINK, MKD_AUTOLINK, MKD_FENCEDCODE, MKD_NOIMAGE, MKD_NOHEADER, MKD_NOSTYLE])

    private static func combine(_ options: [Int32]) -> mkd_flag_t {
        var combined: mkd_flag_t = 0
        for option in options { combined |= mkd_flag_t(bitPattern: option) }
        return combined
    }
}
