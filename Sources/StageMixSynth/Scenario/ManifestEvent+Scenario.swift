public import StageMixCapture

extension ManifestEvent {
    /// A host's stage invitation (`HOSTREQUESTED`) from `sender` to `receiver`.
    public static func invite(_ atMs: Int, from sender: ScenarioParticipant, to receiverId: String) -> Self {
        Self(atMs: atMs, type: "pubsub.message", topic: "HOSTREQUESTED", senderId: sender.id,
             payload: ["receiverId": receiverId, "senderId": sender.id, "senderName": sender.name])
    }
}
