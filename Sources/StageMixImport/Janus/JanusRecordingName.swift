/// What a VideoRoom recording's file name says, when Janus chose it:
/// `videoroom-<room>-user-<id>-<microseconds>-<audio|video|data>-<mindex>.mjr`. A name given by
/// the publisher's `filename` says nothing: the events say whose it is.
struct JanusRecordingName: Sendable, Equatable {
    var room: String
    var publisherId: String
    /// When the recorder was made, real-time microseconds.
    var createdUs: Int64
    var kind: String
    var mindex: Int

    init?(_ fileName: String) {
        guard fileName.hasPrefix("videoroom-"), fileName.hasSuffix(".mjr"),
              let user = fileName.range(of: "-user-", options: .backwards) else { return nil }
        let room = fileName[fileName.index(fileName.startIndex, offsetBy: "videoroom-".count)..<user.lowerBound]
        let rest = fileName[user.upperBound...].dropLast(".mjr".count)
        // From the right: the mindex, the kind and the time have no dashes; the id may (string ids).
        let parts = rest.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count >= 4, !room.isEmpty, let mindex = Int(parts[parts.count - 1]),
              ["audio", "video", "data"].contains(String(parts[parts.count - 2])), let created = Int64(parts[parts.count - 3]) else { return nil }
        let id = parts[..<(parts.count - 3)].joined(separator: "-")
        guard !id.isEmpty else { return nil }
        self.room = String(room)
        publisherId = id
        createdUs = created
        kind = String(parts[parts.count - 2])
        self.mindex = mindex
    }
}
