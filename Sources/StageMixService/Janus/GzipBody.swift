import CZlib
import Foundation

/// A request body sent with `Content-Encoding: gzip` (Janus's event handler with `compress = true`),
/// inflated with a bound: a small body that would inflate past it (a decompression bomb) is refused
/// once the bound is reached, without inflating the rest. Concatenated gzip members are read in turn.
enum GzipBody {
    enum Failure: Error, Equatable {
        /// Inflates to more than the bound.
        case tooLarge
        /// Not gzip, or cut short.
        case corrupt(String)
    }

    /// Not one of zlib's codes: the bound was reached.
    private static let overLimit: Int32 = -1000

    static func inflate(_ compressed: [UInt8], limit: Int) throws(Failure) -> [UInt8] {
        var output: [UInt8] = []
        var offset = 0
        repeat {
            let (member, used) = try inflateMember(compressed, from: offset, limit: limit - output.count)
            output += member
            offset += used
            // Trailing zero bytes after the last member are padding some writers add, not another member.
        } while offset < compressed.count && compressed[offset...].contains(where: { $0 != 0 })
        return output
    }

    /// One gzip member from `offset`: what it inflates to, and how many input bytes it took.
    private static func inflateMember(_ input: [UInt8], from offset: Int, limit: Int) throws(Failure) -> ([UInt8], Int) {
        var stream = z_stream()
        guard czlib_inflate_init_gzip(&stream) == Z_OK else { throw .corrupt("zlib could not start") }
        defer { inflateEnd(&stream) }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        let status: Int32 = input.withUnsafeBufferPointer { source -> Int32 in
            stream.next_in = UnsafeMutablePointer(mutating: source.baseAddress.map { $0 + offset })
            stream.avail_in = UInt32(source.count - offset)
            while true {
                let result: Int32 = chunk.withUnsafeMutableBufferPointer { target in
                    stream.next_out = target.baseAddress
                    stream.avail_out = UInt32(target.count)
                    return CZlib.inflate(&stream, Z_NO_FLUSH)
                }
                let produced = chunk.count - Int(stream.avail_out)
                guard output.count + produced <= limit else { return Self.overLimit }
                output += chunk[..<produced]
                if result == Z_STREAM_END { return Z_STREAM_END }
                guard result == Z_OK else { return result }
                // No input left and no output made: the stream is cut short.
                if stream.avail_in == 0 && produced == 0 { return Z_BUF_ERROR }
            }
        }
        switch status {
        case Z_STREAM_END: return (output, input.count - offset - Int(stream.avail_in))
        case Self.overLimit: throw .tooLarge
        case Z_BUF_ERROR: throw .corrupt("the gzip stream is cut short")
        default: throw .corrupt(stream.msg.map { String(cString: $0) } ?? "not a gzip stream (zlib \(status))")
        }
    }
}
