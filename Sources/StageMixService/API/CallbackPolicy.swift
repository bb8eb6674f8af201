public import Foundation

/// Which webhook targets are allowed: http or https, and, unless private callbacks are allowed, only
/// public addresses, so that the service cannot be used to reach what sits beside it (loopback, the
/// private networks, link-local cloud metadata). Checked when a composition is created and again
/// before each delivery, since a name may resolve elsewhere later.
public struct CallbackPolicy: Sendable {
    public var allowPrivate: Bool

    public init(allowPrivate: Bool) { self.allowPrivate = allowPrivate }

    /// Checks the URL's form (a 422 naming `field`).
    public func checkForm(_ text: String, field: String = "callbackUrl") throws(Problem) -> URL {
        guard text.utf8.count <= 2048 else { throw Problem.invalid(field, "must be at most 2048 bytes") }
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
              scheme == "http" || scheme == "https", let host = components.host, !host.isEmpty, let url = components.url else {
            throw Problem.invalid(field, "must be an http or https URL with a host")
        }
        guard components.user == nil, components.password == nil else {
            throw Problem.invalid(field, "must not hold a user name or password")
        }
        _ = host
        return url
    }

    /// Checks the URL's form and where its host resolves.
    public func check(_ text: String, field: String = "callbackUrl") throws(Problem) -> URL {
        let url = try checkForm(text, field: field)
        if let reason = refusal(url) { throw Problem.invalid(field, reason) }
        return url
    }

    /// Why delivery to `url` is refused now, or nil.
    public func refusal(_ url: URL) -> String? {
        guard !allowPrivate else { return nil }
        guard var host = url.host, !host.isEmpty else { return "has no host" }
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        let addresses = Self.resolve(host)
        guard !addresses.isEmpty else { return "host \(host) does not resolve" }
        if let bad = addresses.first(where: { !$0.isPublic }) {
            return "\(host) is a private, loopback or link-local address (\(bad)); start the service with --allow-private-callbacks to allow it"
        }
        return nil
    }

    static func resolve(_ host: String) -> [IPAddress] {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var result: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, nil, &hints, &result) == 0, let first = result else { return [] }
        defer { freeaddrinfo(first) }
        var out: [IPAddress] = []
        var cursor: UnsafeMutablePointer<addrinfo>? = first
        while let info = cursor {
            if let address = info.pointee.ai_addr.flatMap(IPAddress.init(sockaddr:)) { out.append(address) }
            cursor = info.pointee.ai_next
        }
        return out
    }
}
