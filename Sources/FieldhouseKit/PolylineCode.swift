/// The encoded polyline format that map libraries read: rows of whole numbers, each number written
/// as its difference from the same column of the row before, zig-zagged so that small negative
/// differences stay short, then in 5-bit groups (low first, 0x20 marking "more follows") offset
/// into printable ASCII 63…126. A track of 1,500 points takes about 9 KB instead of 33 KB of
/// decimal pairs.
public enum PolylineCode {
    public static func encode(_ rows: [[Int]]) -> String {
        var out: [UInt8] = []
        var previous: [Int] = []
        for row in rows {
            if previous.count != row.count { previous = Array(repeating: 0, count: row.count) }
            for (column, value) in row.enumerated() {
                let delta = value &- previous[column]
                var bits = UInt64(bitPattern: Int64(delta &<< 1) ^ Int64(delta >> 63))
                while bits >= 0x20 {
                    out.append(UInt8(0x20 | (bits & 0x1f)) + 63)
                    bits >>= 5
                }
                out.append(UInt8(bits) + 63)
                previous[column] = value
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The rows `encode` wrote, `columns` numbers each; nil for anything that is not such text.
    public static func decode(_ text: String, columns: Int) -> [[Int]]? {
        guard columns > 0 else { return nil }
        var rows: [[Int]] = []
        var row: [Int] = []
        var previous = Array(repeating: 0, count: columns)
        var bits: UInt64 = 0, shift: UInt64 = 0
        for byte in text.utf8 {
            guard (63...126).contains(byte), shift < 64 else { return nil }
            let chunk = UInt64(byte - 63)
            bits |= (chunk & 0x1f) << shift
            if chunk & 0x20 != 0 { shift += 5; continue }
            let delta = Int(Int64(bitPattern: bits >> 1) ^ -Int64(bitPattern: bits & 1))
            let value = previous[row.count] &+ delta
            previous[row.count] = value
            row.append(value)
            if row.count == columns { rows.append(row); row = [] }
            bits = 0
            shift = 0
        }
        return row.isEmpty && shift == 0 ? rows : nil
    }
}
