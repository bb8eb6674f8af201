import Foundation

/// An IPv4 or IPv6 address, and whether it is on the public internet.
public enum IPAddress: Sendable, Hashable, CustomStringConvertible {
    case v4(UInt8, UInt8, UInt8, UInt8)
    case v6([UInt8])

    init?(sockaddr pointer: UnsafeMutablePointer<sockaddr>) {
        switch Int32(pointer.pointee.sa_family) {
        case AF_INET:
            let address = pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr.s_addr }
            let b = withUnsafeBytes(of: address) { Array($0) }
            self = .v4(b[0], b[1], b[2], b[3])
        case AF_INET6:
            let bytes = pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { p in
                withUnsafeBytes(of: p.pointee.sin6_addr) { Array($0) }
            }
            self = .v6(bytes)
        default:
            return nil
        }
    }

    /// False for loopback, private, shared, link-local, multicast, reserved and unspecified ranges
    /// (IPv4-mapped IPv6 addresses are judged as their IPv4 address).
    public var isPublic: Bool {
        switch self {
        case .v4(let a, let b, _, _):
            if a == 0 || a == 10 || a == 127 || a >= 224 { return false }
            if a == 100 && (64...127).contains(b) { return false }
            if a == 169 && b == 254 { return false }
            if a == 172 && (16...31).contains(b) { return false }
            if a == 192 && b == 168 { return false }
            if a == 192 && b == 0 { return false }
            if a == 198 && (18...19).contains(b) { return false }
            return true
        case .v6(let bytes):
            guard bytes.count == 16 else { return false }
            if bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xff && bytes[11] == 0xff {
                return IPAddress.v4(bytes[12], bytes[13], bytes[14], bytes[15]).isPublic
            }
            if bytes[0..<15].allSatisfy({ $0 == 0 }) { return false }  // :: and ::1
            if bytes[0] & 0xfe == 0xfc { return false }  // fc00::/7 unique local
            if bytes[0] == 0xfe && bytes[1] & 0xc0 == 0x80 { return false }  // fe80::/10 link-local
            if bytes[0] == 0xff { return false }  // multicast
            if bytes[0] == 0x20 && bytes[1] == 0x01 && bytes[2] == 0x0d && bytes[3] == 0xb8 { return false }  // documentation
            return true
        }
    }

    public var description: String {
        switch self {
        case .v4(let a, let b, let c, let d): "\(a).\(b).\(c).\(d)"
        case .v6(let bytes):
            stride(from: 0, to: 16, by: 2).map { String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16) }.joined(separator: ":")
        }
    }
}
