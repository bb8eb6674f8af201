import StageMixCapture
/// Follows `HOSTREQUESTED` and `ACK` pub/sub messages and reports each invitation's outcome.
///
/// Each message costs constant work (amortized), however many invitations came before: at most one
/// invitation per viewer is open, and open invitations expire in the order they were made.
struct InvitationLedger {
    private(set) var invitations: [Invitation] = []
    /// Viewer id -> their open invitation (a new one supersedes it).
    private var open: [String: Int] = [:]
    /// Invitations in the order they were made, which is the order their answer windows close.
    private var expiryQueue: [Int] = []
    private var nextExpiry = 0
    /// Viewer id -> their invitations that expired unanswered, with no late answer noted yet, ascending.
    private var unanswered: [String: [Int]] = [:]

    mutating func record(_ message: PubSubMessage, atMs: Int) {
        expire(before: atMs)
        switch message.topic {
        case "HOSTREQUESTED":
            guard let receiver = message.payload["receiverId"] else { return }
            // A repeated invitation to the same viewer replaces the open one.
            if let superseded = open[receiver] {
                invitations[superseded].outcome = .expired
                invitations[superseded].resolvedAtMs = atMs
                invitations[superseded].note = "superseded by a new invitation"
            }
            open[receiver] = invitations.count
            expiryQueue.append(invitations.count)
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
            if let index = open.removeValue(forKey: message.senderId) {
                invitations[index].outcome = answer
                invitations[index].resolvedAtMs = atMs
            } else if let late = unanswered[message.senderId]?.popLast() {
                invitations[late].note = "answered \(answer.rawValue) at \(atMs) ms of the session, after the \(Invitation.answerWindowMs / 1000) s window"
            }
        default:
            break
        }
    }

    /// Closes the ledger at the end of the session: unanswered invitations expire.
    mutating func finish(atMs endMs: Int) {
        expire(before: endMs + 1)
        for index in open.values {
            invitations[index].outcome = .expired
            invitations[index].resolvedAtMs = endMs
            invitations[index].note = "session ended before an answer"
        }
        open = [:]
    }

    private mutating func expire(before nowMs: Int) {
        while nextExpiry < expiryQueue.count {
            let index = expiryQueue[nextExpiry]
            let deadline = invitations[index].requestedAtMs + Invitation.answerWindowMs
            guard deadline < nowMs else { break }
            nextExpiry += 1
            guard invitations[index].outcome == .requested else { continue }
            invitations[index].outcome = .expired
            invitations[index].resolvedAtMs = deadline
            open[invitations[index].receiverId] = nil
            unanswered[invitations[index].receiverId, default: []].append(index)
        }
    }
}
