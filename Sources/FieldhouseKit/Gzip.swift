import CZlib

/// gzip decompression with zlib, capped so a small "zip bomb" cannot fill the memory.
public enum Gzip {
    public static func isCompressed(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 2 && bytes[0] == 0x1F && bytes[1] == 0x8B
    }

    public static func decompress(_ input: [UInt8], limit: Int) throws -> [UInt8] {
        // zlib counts input in 32 bits; no upload comes near 4 GB, but a count must never trap.
        guard input.count <= Int(UInt32.max) else {
            throw ActivityFileError.tooLarge(t("The compressed file is larger than 4 GB."))
        }
        var stream = z_stream()
        // 15 + 16: a gzip wrapper around a full-size window.
        guard inflateInit2_(&stream, 15 + 16, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw ActivityFileError.corrupt(t("the gzip data could not be opened"))
        }
        defer { inflateEnd(&stream) }
        var output: [UInt8] = []
        output.reserveCapacity(min(limit, input.count * 4))
        var chunk = [UInt8](repeating: 0, count: 256 * 1024)
        return try input.withUnsafeBufferPointer { source -> [UInt8] in
            stream.next_in = UnsafeMutablePointer(mutating: source.baseAddress)
            stream.avail_in = UInt32(source.count)
            while true {
                let status = chunk.withUnsafeMutableBufferPointer { buffer -> Int32 in
                    stream.next_out = buffer.baseAddress
                    stream.avail_out = UInt32(buffer.count)
                    return inflate(&stream, Z_NO_FLUSH)
                }
                let produced = chunk.count - Int(stream.avail_out)
                guard output.count + produced <= limit else {
                    throw ActivityFileError.tooLarge(t("The compressed file expands to more than {megabytes} MB; upload a smaller one.", limit / 1_048_576))
                }
                output.append(contentsOf: chunk[0..<produced])
                switch status {
                case Z_STREAM_END:
                    // Concatenated gzip members are one file, as gunzip treats them.
                    if stream.avail_in > 0, isCompressed(Array(UnsafeBufferPointer(start: stream.next_in, count: min(2, Int(stream.avail_in))))) {
                        inflateReset(&stream)
                        continue
                    }
                    return output
                case Z_OK:
                    if stream.avail_in == 0 && produced == 0 {
                        throw ActivityFileError.truncated(t("the gzip data ends early"))
                    }
                case Z_BUF_ERROR:
                    if stream.avail_in == 0 { throw ActivityFileError.truncated(t("the gzip data ends early")) }
                default:
                    throw ActivityFileError.corrupt(t("the gzip data is damaged"))
                }
            }
        }
    }
}
