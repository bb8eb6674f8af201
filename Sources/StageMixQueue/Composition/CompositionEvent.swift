import Foundation

/// The webhook events of a composition, and which job transition causes each. They are written to the
/// outbox by the same transaction that changes the job, so none is lost and none is made up.
public enum CompositionEvent: String, Sendable, CaseIterable {
    case queued = "composition.queued"
    case started = "composition.started"
    case progress = "composition.progress"
    case completed = "composition.completed"
    case failed = "composition.failed"
    case cancelled = "composition.cancelled"

    /// One event to tell: which, and for `progress` the multiple of 10 % it tells.
    struct Occurrence: Sendable, Hashable {
        var event: CompositionEvent
        var step: Int?
    }

    /// The events a change of the job from `old` to `new` causes, in order. Progress is told once for
    /// each multiple of 10 % from 10 to 90 that it crossed (a jump from 20 to 50 tells 30, 40 and 50;
    /// the completed event is the 100), so a receiver sees every step once, in order.
    static func caused(from old: Job, to new: Job) -> [Occurrence] {
        if new.state != old.state {
            let event: CompositionEvent? = switch new.state {
            // A join taken again after a failure goes on with a composition that has started already.
            case .running: new.phase == .join ? nil : .started
            case .succeeded: .completed
            case .dead: .failed
            case .cancelled: .cancelled
            case .queued, .failed: nil
            }
            return event.map { [Occurrence(event: $0, step: nil)] } ?? []
        }
        let (from, to) = (decile(old.progress), decile(new.progress))
        guard new.state == .running, to > from else { return [] }
        return (from + 1...to).filter { (1...9).contains($0) }.map { Occurrence(event: .progress, step: $0 * 10) }
    }

    static func decile(_ percent: Double) -> Int {
        guard percent.isFinite else { return 0 }
        return Int((min(100, max(0, percent)) / 10).rounded(.down))
    }

    /// The body sent: Standard Webhooks' `type`, `timestamp` and `data` (the composition as the API shows it).
    func body(_ composition: Composition, job: Job, now: Double, step: Int? = nil) -> String {
        var view = CompositionView(composition, job: job, now: now)
        if let step { view.progress = Double(step) }
        let envelope = Envelope(type: rawValue, timestamp: CompositionView.timestamp(now), data: view)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(envelope)) ?? Data(), as: UTF8.self)
    }

    private struct Envelope: Encodable {
        var type: String
        var timestamp: String
        var data: CompositionView
    }

    /// Records what the change from `old` to `new` means for the composition of that job, if the job
    /// is one: when it started, and the event for its callback. Called inside the transaction that
    /// writes `new`.
    static func record(from old: Job, to new: Job, in tx: any SQLJobTransaction) async throws {
        let occurrences = caused(from: old, to: new)
        guard !occurrences.isEmpty else { return }
        let rows = try await tx.query("SELECT \(CompositionSQL.columns) FROM stagemix_compositions WHERE id = $1", [.text(new.id)])
        guard let row = rows.first else { return }
        var composition = try CompositionSQL.decode(row)
        for occurrence in occurrences {
            if occurrence.event == .started {
                composition.startedAt = tx.now
                _ = try await tx.query("UPDATE stagemix_compositions SET started_at = $2 WHERE id = $1", [.text(new.id), .real(tx.now)])
            }
            try await occurrence.event.enqueue(for: composition, job: new, in: tx, step: occurrence.step)
        }
    }

    /// Adds this event to the outbox, after the composition's earlier events.
    /// A composition of the Twilio-shaped API gets Twilio's status callback instead, when Twilio has one.
    func enqueue(for composition: Composition, job: Job, in tx: any SQLJobTransaction, step: Int? = nil) async throws {
        guard let url = composition.callbackURL else { return }
        var type = rawValue
        var delivery = WebhookDelivery.standard
        let text: String
        if let twilio = composition.twilio {
            guard let callback = TwilioStatusCallback(self, composition: composition, job: job, now: tx.now, step: step) else { return }
            (type, text, delivery) = (callback.event, callback.fields.encoded, .twilio(method: twilio.statusCallbackMethod))
        } else {
            text = body(composition, job: job, now: tx.now, step: step)
        }
        let last = try await tx.query(
            "SELECT COALESCE(MAX(seq), 0) AS n FROM stagemix_webhooks WHERE composition_id = $1", [.text(composition.id)])
        let sequence = (last.first?["n"]?.int ?? 0) + 1
        let id = "msg_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        _ = try await tx.query(
            """
            INSERT INTO stagemix_webhooks (\(CompositionSQL.webhookColumns))
            VALUES ($1, $2, $3, $4, $5, $6, $7, 0, $8, 0, NULL, NULL, NULL, NULL, $8, $9)
            """,
            [.text(id), .text(composition.id), .integer(sequence), .text(type), .text(text),
             .text(url), .text(composition.apiKey), .real(tx.now), SQLValue(delivery.stored)])
    }
}
