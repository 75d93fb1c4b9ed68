import FieldhouseKit

/// A FIT activity file written by a test, byte by byte, with a valid header and checksums: the way to
/// make the hostile files (huge timestamps, wrapping clocks, enormous totals) no device writes.
struct FITBuilder {
    /// Base types, as the FIT profile numbers them.
    enum Base: UInt8 { case enumeration = 0x00, uint8 = 0x02, uint16 = 0x84, uint32 = 0x86, uint64 = 0x8F }

    private(set) var data: [UInt8] = []

    /// A FIT file that starts as an activity: `file_id` with type 4.
    static func activity() -> FITBuilder {
        var builder = FITBuilder()
        builder.define(local: 0, global: 0, fields: [(0, 1, .enumeration)])
        builder.message(local: 0, [4])
        return builder
    }

    /// A little-endian definition message.
    mutating func define(local: UInt8, global: UInt16, fields: [(number: UInt8, size: UInt8, base: Base)]) {
        data += [0x40 | local, 0, 0, UInt8(global & 0xFF), UInt8(global >> 8), UInt8(fields.count)]
        for field in fields { data += [field.number, field.size, field.base.rawValue] }
    }

    mutating func message(local: UInt8, _ bytes: [UInt8]) {
        data += [local] + bytes
    }

    /// A data message with a compressed-timestamp header: five bits of offset, local types 0–3.
    mutating func compressed(local: UInt8, offset: UInt8, _ bytes: [UInt8]) {
        data += [0x80 | (local & 0x03) << 5 | (offset & 0x1F)] + bytes
    }

    static func le(_ value: UInt64, _ size: Int) -> [UInt8] {
        (0..<size).map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) }
    }

    var file: [UInt8] {
        let bytes = data
        var header: [UInt8] = [14, 0x10, 0x08, 0x08] + Self.le(UInt64(bytes.count), 4) + Array(".FIT".utf8)
        header += Self.le(UInt64(header.withUnsafeBufferPointer { FITReader.crc($0) }), 2)
        var out = header + bytes
        out += Self.le(UInt64(out.withUnsafeBufferPointer { FITReader.crc($0) }), 2)
        return out
    }
}
