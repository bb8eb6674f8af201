/// Follows `HOSTREQUESTED` and `ACK` pub/sub messages and reports each invitation's outcome.
struct InvitationLedger {
    private(set) var invitations: [Invitation] = []

    mutating func record(_ message: PubSubMessage, atMs: Int) {
        expire(before: atMs)
        switch message.topic {
        case "HOSTREQUESTED":
            guard let receiver = message.payload["receiverId"] else { return }
            // A repeated invitation to the same viewer replaces the open one.
            if let open = openIndex(receiver: receiver, sender: nil) {
                invitations[open].outcome = .expired
                invitations[open].resolvedAtMs = atMs
                invitations[open].note = "superseded by a new invitation"
            }
            invitations.append(Invitation(
                requestedAtMs: atMs, senderId: message.payload["senderId"] ?? message.senderId,
                senderName: message.payload["senderName"], receiverId: receiver, outcome: .requested,
                resolvedAtMs: nil, note: nil))
        case "ACK":
            // The viewer answers: the ACK's sender is the invited viewer, its receiverId the host.
            let answer: Invitation.Outcome
            switch message.message?.uppercased() {
            case "ACCEPTED": answer = .accepted
            case "DECLINED": answer = .declined
            default: return
            }
            if let open = openIndex(receiver: message.senderId, sender: message.payload["receiverId"]) {
                invitations[open].outcome = answer
                invitations[open].resolvedAtMs = atMs
            } else if let late = invitations.lastIndex(where: {
                $0.receiverId == message.senderId && $0.outcome == .expired && $0.note == nil
            }) {
                invitations[late].note = "answered \(answer.rawValue) at \(atMs) ms, after the \(Invitation.answerWindowMs / 1000) s window"
            }
        default:
            break
        }
    }

    /// Closes the ledger at the end of the session: unanswered invitations expire.
    mutating func finish(atMs endMs: Int) {
        expire(before: endMs + 1)
        for index in invitations.indices where invitations[index].outcome == .requested {
            invitations[index].outcome = .expired
            invitations[index].resolvedAtMs = endMs
            invitations[index].note = "session ended before an answer"
        }
    }

    private mutating func expire(before nowMs: Int) {
        for index in invitations.indices where invitations[index].outcome == .requested {
            let deadline = invitations[index].requestedAtMs + Invitation.answerWindowMs
            if deadline < nowMs {
                invitations[index].outcome = .expired
                invitations[index].resolvedAtMs = deadline
            }
        }
    }

    private func openIndex(receiver: String, sender: String?) -> Int? {
        invitations.lastIndex {
            $0.outcome == .requested && $0.receiverId == receiver && (sender == nil || $0.senderId == sender)
        } ?? (sender != nil ? openIndex(receiver: receiver, sender: nil) : nil)
    }
}
