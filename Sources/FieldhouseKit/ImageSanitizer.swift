/// Copies a JPEG, PNG or WebP while dropping every metadata block (EXIF, XMP, IPTC, comments, text
/// chunks, embedded thumbnails), chunk by chunk as an upload arrives, so a 20 MB photo never has
/// to sit in memory. What it dropped that Fieldhouse wants (the EXIF block) and the picture's size
/// come back from `finish()`, which also refuses a file that ends early.
///
/// Kept: everything needed to draw the picture the same way, including colour profiles (JPEG APP2
/// ICC_PROFILE, PNG iCCP, WebP ICCP) and JPEG's APP0 JFIF and APP14 Adobe segments.
public struct ImageSanitizer {
    public enum Failure: Error, Equatable, Sendable {
        /// The bytes stop before the picture does (a cut-off upload).
        case truncated
        /// The bytes are not laid out as the format requires.
        case malformed(String)
    }

    public struct Result: Equatable, Sendable {
        /// The EXIF block that was removed (TIFF bytes, possibly after "Exif\0\0"), at most 64 KiB.
        public var exif: [UInt8]?
        public var width: Int?
        public var height: Int?
        /// Bytes to overwrite in the output once it is complete (WebP's RIFF size and flags).
        public var patches: [(offset: Int, bytes: [UInt8])]

        public static func == (a: Result, b: Result) -> Bool {
            a.exif == b.exif && a.width == b.width && a.height == b.height
                && a.patches.map(\.offset) == b.patches.map(\.offset) && a.patches.map(\.bytes) == b.patches.map(\.bytes)
        }
    }

    public let format: ImageFormat
    private var state: State
    /// Bytes held back until there are enough to decide what they are.
    private var pending: [UInt8] = []
    private var result = Result(exif: nil, width: nil, height: nil, patches: [])
    private var written = 0
    private var consumed = 0
    /// The segment or chunk being captured into `capture` (EXIF, or a header holding the size).
    private var capture: [UInt8] = []
    private var captureKind: CaptureKind = .none
    // WebP bookkeeping.
    private var riffEnd = 0
    private var vp8xFlagsOffset: Int?

    private enum CaptureKind: Equatable { case none, exif, dimensions(UInt8) }

    private enum State {
        case signature
        // JPEG
        case marker
        case segmentHeader(marker: UInt8)
        case segmentBody(keep: Bool, remaining: Int, thenScan: Bool)
        case scan(sawFF: Bool)
        // PNG and WebP
        case chunkHeader
        case chunkBody(keep: Bool, remaining: Int, isLast: Bool)
        case end
    }

    public init(format: ImageFormat) throws {
        guard format != .heic else { throw Failure.malformed("HEIC pictures cannot be read") }
        self.format = format
        self.state = .signature
    }

    /// Consumes the next piece of the file; returns the bytes to write to the clean copy.
    public mutating func feed(_ bytes: some Collection<UInt8>) throws -> [UInt8] {
        var input = ArraySlice(bytes)
        var output: [UInt8] = []
        output.reserveCapacity(input.count)
        while !input.isEmpty {
            switch format {
            case .jpeg: try stepJPEG(&input, &output)
            case .png: try stepPNG(&input, &output)
            case .webp: try stepWebP(&input, &output)
            case .heic: throw Failure.malformed("HEIC pictures cannot be read")
            }
        }
        written += output.count
        return output
    }

    /// Ends the file; throws `.truncated` unless the picture was complete.
    public mutating func finish() throws -> Result {
        guard case .end = state else { throw Failure.truncated }
        if format == .webp {
            let size = written - 8
            result.patches.append((4, [UInt8(size & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size >> 16 & 0xFF), UInt8(size >> 24 & 0xFF)]))
        }
        return result
    }

    // MARK: - Shared helpers

    /// Moves bytes from `input` into `pending` until it holds `count`; true when it does.
    private mutating func gather(_ count: Int, from input: inout ArraySlice<UInt8>) -> Bool {
        let needed = count - pending.count
        if needed > 0 {
            let taken = input.prefix(needed)
            pending.append(contentsOf: taken)
            input = input.dropFirst(taken.count)
            consumed += taken.count
        }
        return pending.count >= count
    }

    /// Passes (or drops) up to `remaining` bytes of a segment body; returns how many are left.
    private mutating func pass(_ remaining: Int, keep: Bool, _ input: inout ArraySlice<UInt8>, _ output: inout [UInt8]) -> Int {
        let part = input.prefix(remaining)
        if keep { output.append(contentsOf: part) }
        if captureKind != .none, capture.count < 65536 {
            capture.append(contentsOf: part.prefix(65536 - capture.count))
        }
        input = input.dropFirst(part.count)
        consumed += part.count
        return remaining - part.count
    }

    private mutating func endCapture() {
        switch captureKind {
        case .none: break
        case .exif: if result.exif == nil { result.exif = capture }
        case .dimensions(let kind): readDimensions(kind)
        }
        capture = []
        captureKind = .none
    }

    // MARK: - JPEG

    private mutating func stepJPEG(_ input: inout ArraySlice<UInt8>, _ output: inout [UInt8]) throws {
        switch state {
        case .signature:
            guard gather(2, from: &input) else { return }
            guard pending == [0xFF, 0xD8] else { throw Failure.malformed("not a JPEG") }
            output += pending
            pending = []
            state = .marker
        case .marker:
            // A marker is 0xFF (any number of fill bytes) then its code.
            guard gather(2, from: &input) else { return }
            guard pending[0] == 0xFF else { throw Failure.malformed("expected a marker") }
            if pending[1] == 0xFF { pending.removeLast(); return }
            let code = pending[1]
            pending = []
            switch code {
            case 0xD9:
                output += [0xFF, 0xD9]
                state = .end
            case 0xD0...0xD7, 0x01:
                output += [0xFF, code]
            default:
                state = .segmentHeader(marker: code)
            }
        case .segmentHeader(let code):
            // Length, then up to 14 bytes of the body: enough to recognise "Exif", "ICC_PROFILE", "Adobe".
            guard gather(2, from: &input) else { return }
            let length = Int(pending[0]) << 8 | Int(pending[1])
            guard length >= 2 else { throw Failure.malformed("bad segment length") }
            guard gather(2 + min(length - 2, 14), from: &input) else { return }
            let body = Array(pending[2...])
            let keep = Self.keepsSegment(code, body: body)
            if code == 0xE1, body.starts(with: Exif.exifHeader) {
                captureKind = .exif
            } else if Self.isFrameHeader(code) {
                captureKind = .dimensions(code)
            }
            if captureKind != .none { capture = body }
            if keep { output += [0xFF, code] + pending }
            let remaining = length - 2 - body.count
            pending = []
            state = .segmentBody(keep: keep, remaining: remaining, thenScan: code == 0xDA)
        case .segmentBody(let keep, let remaining, let thenScan):
            let left = pass(remaining, keep: keep, &input, &output)
            if left == 0 {
                endCapture()
                state = thenScan ? .scan(sawFF: false) : .marker
            } else {
                state = .segmentBody(keep: keep, remaining: left, thenScan: thenScan)
            }
        case .scan(let sawFF):
            // Entropy-coded data: copy up to the next 0xFF, which is either stuffing (FF 00), a
            // restart marker, or the marker that ends the scan.
            if sawFF {
                let byte = input.removeFirst()
                consumed += 1
                switch byte {
                case 0x00, 0xD0...0xD7:
                    output += [0xFF, byte]
                    state = .scan(sawFF: false)
                case 0xFF:
                    break // fill byte; still waiting for the code
                case 0xD9:
                    output += [0xFF, 0xD9]
                    state = .end
                default:
                    pending = [0xFF, byte]
                    state = .marker
                }
            } else if let ff = input.firstIndex(of: 0xFF) {
                output.append(contentsOf: input[..<ff])
                consumed += ff - input.startIndex + 1
                input = input[(ff + 1)...]
                state = .scan(sawFF: true)
            } else {
                output.append(contentsOf: input)
                consumed += input.count
                input = []
            }
        case .end:
            // Anything after the end of the image (maker trailers, second images) is not served.
            consumed += input.count
            input = []
        default:
            throw Failure.malformed("internal state")
        }
    }

    static func isFrameHeader(_ code: UInt8) -> Bool {
        (0xC0...0xCF).contains(code) && code != 0xC4 && code != 0xC8 && code != 0xCC
    }

    static func keepsSegment(_ code: UInt8, body: [UInt8]) -> Bool {
        switch code {
        case 0xE0: body.starts(with: Array("JFIF".utf8) + [0])
        case 0xE2: body.starts(with: Array("ICC_PROFILE".utf8) + [0])
        case 0xEE: body.starts(with: Array("Adobe".utf8))
        case 0xE1, 0xE3...0xED, 0xEF, 0xFE: false
        default: true
        }
    }

    // MARK: - PNG

    private static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    private static let pngDropped: Set<String> = ["eXIf", "tEXt", "zTXt", "iTXt", "tIME"]

    private mutating func stepPNG(_ input: inout ArraySlice<UInt8>, _ output: inout [UInt8]) throws {
        switch state {
        case .signature:
            guard gather(8, from: &input) else { return }
            guard pending == Self.pngSignature else { throw Failure.malformed("not a PNG") }
            output += pending
            pending = []
            state = .chunkHeader
        case .chunkHeader:
            guard gather(8, from: &input) else { return }
            let length = Int(pending[0]) << 24 | Int(pending[1]) << 16 | Int(pending[2]) << 8 | Int(pending[3])
            let type = String(decoding: pending[4..<8], as: UTF8.self)
            guard length < 1 << 31, pending[4..<8].allSatisfy({ (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }) else {
                throw Failure.malformed("bad chunk")
            }
            let keep = !Self.pngDropped.contains(type)
            if type == "eXIf" { captureKind = .exif } else if type == "IHDR" { captureKind = .dimensions(0) }
            if keep { output += pending }
            pending = []
            // The body is followed by a four-byte CRC; capture only the body.
            state = .chunkBody(keep: keep, remaining: length + 4, isLast: type == "IEND")
            if captureKind != .none { capture = [] }
            pngCaptureLength = length
        case .chunkBody(let keep, let remaining, let isLast):
            let left = pass(remaining, keep: keep, &input, &output)
            if left == 0 {
                if capture.count > pngCaptureLength { capture.removeLast(capture.count - pngCaptureLength) }
                endCapture()
                state = isLast ? .end : .chunkHeader
            } else {
                state = .chunkBody(keep: keep, remaining: left, isLast: isLast)
            }
        case .end:
            consumed += input.count
            input = []
        default:
            throw Failure.malformed("internal state")
        }
    }

    private var pngCaptureLength = 0

    // MARK: - WebP

    private mutating func stepWebP(_ input: inout ArraySlice<UInt8>, _ output: inout [UInt8]) throws {
        switch state {
        case .signature:
            guard gather(12, from: &input) else { return }
            guard pending.starts(with: Array("RIFF".utf8)), pending[8..<12].elementsEqual("WEBP".utf8) else {
                throw Failure.malformed("not a WebP")
            }
            let size = Int(pending[4]) | Int(pending[5]) << 8 | Int(pending[6]) << 16 | Int(pending[7]) << 24
            guard size >= 4 else { throw Failure.malformed("bad RIFF size") }
            riffEnd = 8 + size
            output += pending
            pending = []
            state = .chunkHeader
        case .chunkHeader:
            if consumed >= riffEnd { state = .end; return }
            guard gather(8, from: &input) else { return }
            let fourCC = String(decoding: pending[0..<4], as: UTF8.self)
            let size = Int(pending[4]) | Int(pending[5]) << 8 | Int(pending[6]) << 16 | Int(pending[7]) << 24
            let padded = size + (size & 1)
            guard consumed + padded <= riffEnd else { throw Failure.truncated }
            let keep = fourCC != "EXIF" && fourCC != "XMP "
            switch fourCC {
            case "EXIF": captureKind = .exif
            case "VP8X":
                captureKind = .dimensions(1)
                vp8xFlagsOffset = written + output.count + 8
            case "VP8 ": captureKind = .dimensions(2)
            case "VP8L": captureKind = .dimensions(3)
            default: break
            }
            if captureKind != .none { capture = [] }
            if keep { output += pending }
            pending = []
            state = .chunkBody(keep: keep, remaining: padded, isLast: false)
        case .chunkBody(let keep, let remaining, _):
            let left = pass(remaining, keep: keep, &input, &output)
            if left == 0 {
                if case .dimensions(1) = captureKind, let offset = vp8xFlagsOffset, let flags = capture.first {
                    // The file no longer carries EXIF (bit 3) or XMP (bit 2).
                    result.patches.append((offset, [flags & ~0x0C]))
                }
                endCapture()
                state = consumed >= riffEnd ? .end : .chunkHeader
            } else {
                state = .chunkBody(keep: keep, remaining: left, isLast: false)
            }
        case .end:
            consumed += input.count
            input = []
        default:
            throw Failure.malformed("internal state")
        }
    }

    // MARK: - Sizes

    private mutating func readDimensions(_ kind: UInt8) {
        let c = capture
        func le(_ i: Int, _ n: Int) -> Int { (0..<n).reduce(0) { $0 | Int(c[i + $1]) << (8 * $1) } }
        switch format {
        case .jpeg where c.count >= 5:
            result.height = Int(c[1]) << 8 | Int(c[2])
            result.width = Int(c[3]) << 8 | Int(c[4])
        case .png where c.count >= 8:
            result.width = Int(c[0]) << 24 | Int(c[1]) << 16 | Int(c[2]) << 8 | Int(c[3])
            result.height = Int(c[4]) << 24 | Int(c[5]) << 16 | Int(c[6]) << 8 | Int(c[7])
        case .webp where kind == 1 && c.count >= 10:
            result.width = le(4, 3) + 1
            result.height = le(7, 3) + 1
        case .webp where kind == 2 && c.count >= 10 && result.width == nil:
            result.width = le(6, 2) & 0x3FFF
            result.height = le(8, 2) & 0x3FFF
        case .webp where kind == 3 && c.count >= 5 && c[0] == 0x2F && result.width == nil:
            let bits = le(1, 4)
            result.width = (bits & 0x3FFF) + 1
            result.height = (bits >> 14 & 0x3FFF) + 1
        default:
            break
        }
    }
}
