import AsyncHTTPClient
import Foundation
internal import NIOCore

/// A request that got no answer from the store, in words a person reads: what the system said about
/// the connection (`connection refused (errno 111)`) and where it was going. SwiftNIO's own text for
/// a refused connect reads "connection reset (error set): Connection refused) (errno: 111)": a reset
/// that was not one, and a bracket that closes nothing.
enum ConnectionFailure {
    /// `error` as one clause, with `endpoint` (`http://127.0.0.1:9000`) when it is known.
    static func describe(_ error: any Error, endpoint: String?) -> String {
        let what = words(for: error)
        guard let endpoint else { return what }
        return "\(what), connecting to \(endpoint)"
    }

    private static func words(for error: any Error) -> String {
        if let io = error as? IOError {
            let system = strerror(io.errnoCode).map { String(cString: $0) } ?? "error"
            return "\(system.prefix(1).lowercased() + system.dropFirst()) (errno \(io.errnoCode))"
        }
        if let client = error as? HTTPClientError {
            switch client {
            case .connectTimeout: return "no connection within the connect timeout"
            case .readTimeout: return "no answer within the read timeout"
            case .deadlineExceeded: return "no whole answer within the request's time limit"
            case .remoteConnectionClosed: return "the store closed the connection before answering"
            default: return "\(client)"
            }
        }
        return "\(error)"
    }
}
