/// The name of a folder StageMix writes an output into before publishing it: hidden, beside the
/// target, naming the target and the process that owns it, so that what a killed process left is
/// recognised and swept, and a live process's folder never is.
///
/// `.<target>.stagemix-<pid>-<start ticks>-<random>` for a staging folder; `.old` is appended to
/// the folder an earlier output is moved to where the file system cannot exchange two folders.
/// A compose run by the worker writes to a staging name of the worker's, so its own staging
/// folder is `.` + that name + its own suffix: the last owner in a name is the one that counts.
public struct StagingName: Sendable, Hashable {
    public var target: String
    public var owner: ProcessIdentity
    public var token: UInt32
    public var isOldOutput: Bool

    static let marker = ".stagemix-"

    public init(target: String, owner: ProcessIdentity = .current,
                token: UInt32 = UInt32.random(in: 0...UInt32.max), isOldOutput: Bool = false) {
        self.target = target
        self.owner = owner
        self.token = token
        self.isOldOutput = isOldOutput
    }

    public var name: String {
        ".\(target)\(Self.marker)\(owner.pid)-\(owner.startTicks)-\(token)\(isOldOutput ? ".old" : "")"
    }

    /// Parses `name` as a staging folder (or an aside old output) of some target.
    public init?(parsing name: String) {
        guard name.hasPrefix(".") else { return nil }
        var body = Substring(name.dropFirst())
        let old = body.hasSuffix(".old")
        if old { body = body.dropLast(4) }
        guard let range = body.range(of: Self.marker, options: .backwards) else { return nil }
        let parts = body[range.upperBound...].split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, let pid = Int32(parts[0]), pid > 0, let ticks = UInt64(parts[1]),
              let token = UInt32(parts[2]), !body[..<range.lowerBound].isEmpty else { return nil }
        self.init(target: String(body[..<range.lowerBound]), owner: ProcessIdentity(pid: pid, startTicks: ticks),
                  token: token, isOldOutput: old)
    }

    /// True if this folder was made, directly or through a worker's staging name, for `target`.
    public func belongs(to target: String) -> Bool {
        var name = self.target
        while true {
            if name == target { return true }
            guard let inner = StagingName(parsing: name) else { return false }
            name = inner.target
        }
    }
}
