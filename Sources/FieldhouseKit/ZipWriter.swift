import CZlib
import Foundation

/// Writes a ZIP archive (PKWARE APPNOTE 6.3, deflate) entry by entry to a sink, so an export of
/// years of samples never sits in memory: each entry is compressed as its pieces arrive and closed
/// with a data descriptor. Names are UTF-8 (flag bit 11). Without ZIP64, an archive stops at
/// 4 GiB and 65,535 entries; `Failure.tooLarge` says so rather than writing a broken file.
public final class ZipWriter {
    public enum Failure: Error, Equatable {
        case tooLarge
        case compression(Int32)
        case misuse(String)
        /// A second entry with a name already written: unzip tools let the last one win, so the
        /// first one's content would be lost on extraction. The archive is not usable after it.
        case duplicateName(String)
    }

    public typealias Sink = ([UInt8]) throws -> Void

    private struct Entry {
        let name: [UInt8]
        let offset: UInt32
        let time: UInt16
        let date: UInt16
        var crc: UInt32 = 0
        var compressed: UInt64 = 0
        var size: UInt64 = 0
    }

    private let sink: Sink
    private var offset: UInt64 = 0
    private var entries: [Entry] = []
    /// Names already written. Compared as Swift strings (canonically equivalent ones are one), as a
    /// file system that normalises names would make them one file.
    private var names: Set<String> = []
    private var open: Entry?
    private let stream: UnsafeMutablePointer<z_stream>
    private var finished = false

    public init(sink: @escaping Sink) throws {
        self.sink = sink
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        // Raw deflate (negative window bits): ZIP stores no zlib header.
        let status = deflateInit2_(stream, 6, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        guard status == Z_OK else {
            stream.deallocate()
            throw Failure.compression(status)
        }
    }

    deinit {
        deflateEnd(stream)
        stream.deallocate()
    }

    /// Adds a whole entry at once.
    public func add(_ name: String, _ bytes: [UInt8], modified: Date = Date()) throws {
        try begin(name, modified: modified)
        try write(bytes)
        try end()
    }

    public func begin(_ name: String, modified: Date = Date()) throws {
        guard open == nil, !finished else { throw Failure.misuse("an entry is already open") }
        guard entries.count < 65_535, offset < UInt64(UInt32.max) else { throw Failure.tooLarge }
        let nameBytes = Array(name.utf8)
        guard nameBytes.count <= 65_535 else { throw Failure.misuse("name too long") }
        guard names.insert(name).inserted else { throw Failure.duplicateName(name) }
        let (time, date) = Self.dosTime(modified)
        let entry = Entry(name: nameBytes, offset: UInt32(offset), time: time, date: date)
        var header: [UInt8] = []
        header.le32(0x0403_4B50)
        header.le16(20) // version needed: 2.0 (deflate)
        header.le16(0x0808) // sizes in a data descriptor; UTF-8 names
        header.le16(8) // deflate
        header.le16(time)
        header.le16(date)
        header.le32(0)
        header.le32(0)
        header.le32(0)
        header.le16(UInt16(nameBytes.count))
        header.le16(0)
        try emit(header + nameBytes)
        open = entry
        deflateReset(stream)
    }

    public func write(_ bytes: [UInt8]) throws {
        guard open != nil else { throw Failure.misuse("no entry is open") }
        guard !bytes.isEmpty else { return }
        open!.crc = bytes.withUnsafeBufferPointer { UInt32(crc32(uLong(open!.crc), $0.baseAddress, uInt($0.count))) }
        open!.size += UInt64(bytes.count)
        try compress(bytes, flush: Z_NO_FLUSH)
    }

    public func end() throws {
        guard var entry = open else { throw Failure.misuse("no entry is open") }
        try compress([], flush: Z_FINISH)
        entry.crc = open!.crc
        entry.size = open!.size
        entry.compressed = open!.compressed
        guard entry.size < UInt64(UInt32.max), entry.compressed < UInt64(UInt32.max) else { throw Failure.tooLarge }
        var descriptor: [UInt8] = []
        descriptor.le32(0x0807_4B50)
        descriptor.le32(entry.crc)
        descriptor.le32(UInt32(entry.compressed))
        descriptor.le32(UInt32(entry.size))
        try emit(descriptor)
        entries.append(entry)
        open = nil
    }

    /// Writes the central directory. The archive is complete once this returns.
    public func finish() throws {
        guard open == nil, !finished else { throw Failure.misuse("an entry is still open") }
        let start = offset
        for entry in entries {
            var header: [UInt8] = []
            header.le32(0x0201_4B50)
            header.le16(0x0314) // made by: Unix, 2.0
            header.le16(20)
            header.le16(0x0808)
            header.le16(8)
            header.le16(entry.time)
            header.le16(entry.date)
            header.le32(entry.crc)
            header.le32(UInt32(entry.compressed))
            header.le32(UInt32(entry.size))
            header.le16(UInt16(entry.name.count))
            header.le16(0)
            header.le16(0)
            header.le16(0)
            header.le16(0)
            header.le32(0o100644 << 16) // a regular file, rw-r--r--
            header.le32(entry.offset)
            try emit(header + entry.name)
        }
        let size = offset - start
        guard offset < UInt64(UInt32.max) else { throw Failure.tooLarge }
        var end: [UInt8] = []
        end.le32(0x0605_4B50)
        end.le16(0)
        end.le16(0)
        end.le16(UInt16(entries.count))
        end.le16(UInt16(entries.count))
        end.le32(UInt32(size))
        end.le32(UInt32(start))
        end.le16(0)
        try emit(end)
        finished = true
    }

    private func emit(_ bytes: [UInt8]) throws {
        try sink(bytes)
        offset += UInt64(bytes.count)
    }

    private func compress(_ input: [UInt8], flush: Int32) throws {
        var output = [UInt8](repeating: 0, count: 64 * 1024)
        var input = input
        try input.withUnsafeMutableBufferPointer { source in
            stream.pointee.next_in = source.baseAddress
            stream.pointee.avail_in = uInt(source.count)
            repeat {
                let (status, produced) = output.withUnsafeMutableBufferPointer { target -> (Int32, Int) in
                    stream.pointee.next_out = target.baseAddress
                    stream.pointee.avail_out = uInt(target.count)
                    let status = deflate(stream, flush)
                    return (status, target.count - Int(stream.pointee.avail_out))
                }
                guard status == Z_OK || status == Z_STREAM_END || status == Z_BUF_ERROR else { throw Failure.compression(status) }
                if produced > 0 {
                    try emit(Array(output[0..<produced]))
                    open!.compressed += UInt64(produced)
                }
                if flush == Z_FINISH ? status == Z_STREAM_END : stream.pointee.avail_out != 0 { break }
            } while true
        }
    }

    /// MS-DOS time and date (UTC), the only timestamp plain ZIP has; 1980 is its first year.
    static func dosTime(_ date: Date) -> (UInt16, UInt16) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone.utc
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        let year = min(max((parts.year ?? 1980) - 1980, 0), 127)
        let time = UInt16((parts.hour ?? 0) << 11 | (parts.minute ?? 0) << 5 | (parts.second ?? 0) / 2)
        let day = UInt16(year << 9 | (parts.month ?? 1) << 5 | (parts.day ?? 1))
        return (time, day)
    }
}

extension Array where Element == UInt8 {
    fileprivate mutating func le16(_ value: UInt16) {
        append(UInt8(value & 0xFF))
        append(UInt8(value >> 8))
    }

    fileprivate mutating func le32(_ value: UInt32) {
        for shift in stride(from: 0, to: 32, by: 8) { append(UInt8(value >> UInt32(shift) & 0xFF)) }
    }
}
