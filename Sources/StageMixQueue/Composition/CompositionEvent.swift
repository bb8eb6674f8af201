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

    /// The event a change of the job from `old` to `new` causes, if any. Progress is told at each
    /// new multiple of 10 % from 10 to 90 (the completed event is the 100).
    static func caused(from old: Job, to new: Job) -> CompositionEvent? {
        if new.state != old.state {
            switch new.state {
            case .running: return .started
            case .succeeded: return .completed
            case .dead: return .failed
            case .cancelled: return .cancelled
            case .queued, .failed: return nil
            }
        }
        if new.state == .running, decile(new.progress) > decile(old.progress), (1...9).contains(decile(new.progress)) {
            return .progress
        }
        return nil
    }

    static func decile(_ percent: Double) -> Int {
        guard percent.isFinite else { return 0 }
        return Int((min(100, max(0, percent)) / 10).rounded(.down))
    }

    /// The body sent: Standard Webhooks' `type`, `timestamp` and `data` (the composition as the API shows it).
    func body(_ composition: Composition, job: Job, now: Double) -> String {
        var view = CompositionView(composition, job: job, now: now)
        if self == .progress { view.progress = Double(Self.decile(job.progress) * 10) }
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
        guard let event = caused(from: old, to: new) else { return }
        let rows = try await tx.query("SELECT \(CompositionSQL.columns) FROM stagemix_compositions WHERE id = $1", [.text(new.id)])
        guard let row = rows.first else { return }
        var composition = try CompositionSQL.decode(row)
        if event == .started {
            composition.startedAt = tx.now
            _ = try await tx.query("UPDATE stagemix_compositions SET started_at = $2 WHERE id = $1", [.text(new.id), .real(tx.now)])
        }
        try await event.enqueue(for: composition, job: new, in: tx)
    }

    /// Adds this event to the outbox, after the composition's earlier events.
    func enqueue(for composition: Composition, job: Job, in tx: any SQLJobTransaction) async throws {
        guard let url = composition.callbackURL else { return }
        let last = try await tx.query(
            "SELECT COALESCE(MAX(seq), 0) AS n FROM stagemix_webhooks WHERE composition_id = $1", [.text(composition.id)])
        let sequence = (last.first?["n"]?.int ?? 0) + 1
        let id = "msg_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        _ = try await tx.query(
            """
            INSERT INTO stagemix_webhooks (\(CompositionSQL.webhookColumns))
            VALUES ($1, $2, $3, $4, $5, $6, $7, 0, $8, 0, NULL, NULL, NULL, NULL, $8)
            """,
            [.text(id), .text(composition.id), .integer(sequence), .text(rawValue), .text(body(composition, job: job, now: tx.now)),
             .text(url), .text(composition.apiKey), .real(tx.now)])
    }
}
