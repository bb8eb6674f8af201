/// What a VideoSDK track recording's path says: VideoSDK writes each file to
/// `${sessionId}/${participantId}/${kind}/${filename}` (under the `bucketDirPath` given), so the
/// last four components of a key, path or URL name the session, the participant and the kind.
struct VideoSDKFilePath: Hashable, Sendable {
    var sessionId: String
    var participantId: String
    var kind: VideoSDKKind
    var name: String

    init?(_ reference: String) {
        let parts = FileIndex.components(of: reference)
        guard parts.count >= 4, let kind = VideoSDKKind(rawValue: parts[parts.count - 2]) else { return nil }
        sessionId = parts[parts.count - 4]
        participantId = parts[parts.count - 3]
        self.kind = kind
        name = parts[parts.count - 1]
    }
}
