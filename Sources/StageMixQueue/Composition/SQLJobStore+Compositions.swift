import Foundation
public import StageMixPublishing

/// What became of a create request.
public enum CompositionCreation: Sendable {
    case created(Composition, Job)
    /// The same request (or idempotency key) made it before: the earlier composition.
    case existing(Composition, Job)
    /// The idempotency key was used before with another request.
    case keyReused(Composition)
}

/// A create transaction lost the race for its request key to another that committed first.
private struct LostRace: Error {}

/// The HTTP API's operations on the queue's database.
extension SQLJobStore {
    /// Creates the composition, its job and its `composition.queued` event in one transaction, or returns
    /// the composition an earlier identical request made. Concurrent identical requests make one job:
    /// the request key is unique, and a transaction that loses that race is rolled back and looks again.
    public func createComposition(_ draft: CompositionDraft, outputRoot: OutputDestination) async throws -> CompositionCreation {
        for _ in 0..<5 {
            do {
                return try await transaction { tx in try await Self.create(draft, outputRoot: outputRoot, in: tx) }
            } catch is LostRace {
                continue
            }
        }
        throw QueueError(.duplicateActiveJob, "composition request \(draft.requestKey) kept racing with another")
    }

    private static func create(_ draft: CompositionDraft, outputRoot: OutputDestination, in tx: any SQLJobTransaction) async throws -> CompositionCreation {
        if let existing = try await tx.query(
            "SELECT \(CompositionSQL.columns) FROM stagemix_compositions WHERE request_key = $1", [.text(draft.requestKey)]
        ).first {
            let composition = try CompositionSQL.decode(existing)
            guard composition.requestDigest == draft.requestDigest else { return .keyReused(composition) }
            let job = try await tx.query("SELECT \(JobSQL.columns) FROM stagemix_jobs WHERE id = $1", [.text(composition.id)])
            guard let row = job.first else { throw QueueError(.noSuchJob, "composition \(composition.id) has no job") }
            return .existing(composition, try JobSQL.decode(row))
        }
        let id = newJobID()
        var spec = draft.spec
        // Each composition is published to a destination of its own under the output root: a folder or a prefix.
        let destination = outputRoot.appending(id)
        spec.out = destination.description
        let job = Job(id: id, spec: spec.normalised(), maxAttempts: draft.maxAttempts, now: tx.now)
        let (sql, binds) = JobSQL.insert(job)
        guard try await !tx.query(sql, binds).isEmpty else {
            throw QueueError(.duplicateActiveJob, "an active job already writes \(spec.out)")
        }
        let composition = Composition(
            id: id, apiKey: draft.apiKey, requestKey: draft.requestKey, requestDigest: draft.requestDigest,
            idempotencyKey: draft.idempotencyKey, callbackURL: draft.callbackURL, capture: draft.capture, layout: draft.layout,
            destination: destination, createdAt: tx.now, twilio: draft.twilio)
        let inserted = try await tx.query(
            """
            INSERT INTO stagemix_compositions (\(CompositionSQL.columns))
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, NULL, $11)
            ON CONFLICT (request_key) DO NOTHING RETURNING id
            """,
            [.text(id), .text(draft.apiKey), .text(draft.requestKey), .text(draft.requestDigest), SQLValue(draft.idempotencyKey),
             SQLValue(draft.callbackURL), .text(draft.capture), .text(draft.layout), .text(destination.description), .real(tx.now),
             SQLValue(draft.twilio?.json)])
        // Another transaction committed the same request key first: undo the job, look again.
        guard !inserted.isEmpty else { throw LostRace() }
        try await CompositionEvent.queued.enqueue(for: composition, job: job, in: tx)
        try await tx.notifyWorkAvailable()
        return .created(composition, job)
    }

    /// The composition `id` if `apiKey` made it; any key's with `apiKey` nil (a signed media link names no key).
    public func composition(id: String, apiKey: String?) async throws -> (Composition, Job)? {
        let rows = try await read(
            "SELECT \(Self.joinedColumns) FROM stagemix_compositions c JOIN stagemix_jobs j ON j.id = c.id WHERE c.id = $1"
                + (apiKey == nil ? "" : " AND c.api_key = $2"),
            [.text(id)] + (apiKey.map { [.text($0)] } ?? []))
        return try rows.first.map(Self.decodeJoined)
    }

    /// `apiKey`'s compositions, newest first, in the given job states, after the cursor `(createdAt, id)`;
    /// with `twilioRoom`, only those asked for through the Twilio-shaped API (of that room, when not empty).
    /// `created` bounds the creation time: `[lowerBound, upperBound)`.
    public func compositions(apiKey: String, states: [JobState], after cursor: (createdAt: Double, id: String)?, limit: Int,
                             twilioRoom: String? = nil, created: Range<Double>? = nil) async throws -> [(Composition, Job)]
    {
        let stateList = states.map { "'\($0.rawValue)'" }.joined(separator: ", ")
        var sql = "SELECT \(Self.joinedColumns) FROM stagemix_compositions c JOIN stagemix_jobs j ON j.id = c.id WHERE c.api_key = $1 AND j.state IN (\(stateList))"
        var binds: [SQLValue] = [.text(apiKey)]
        if let twilioRoom {
            sql += " AND c.twilio IS NOT NULL"
            if !twilioRoom.isEmpty {
                binds.append(.text(twilioRoom))
                sql += " AND c.capture = $\(binds.count)"
            }
        }
        if let created {
            binds += [.real(created.lowerBound), .real(created.upperBound)]
            sql += " AND c.created_at >= $\(binds.count - 1) AND c.created_at < $\(binds.count)"
        }
        if let cursor {
            sql += " AND (c.created_at < $\(binds.count + 1) OR (c.created_at = $\(binds.count + 1) AND c.id < $\(binds.count + 2)))"
            binds += [.real(cursor.createdAt), .text(cursor.id)]
        }
        sql += " ORDER BY c.created_at DESC, c.id DESC LIMIT $\(binds.count + 1)"
        binds.append(.integer(limit))
        return try await read(sql, binds).map(Self.decodeJoined)
    }

    /// Composition columns as `c_...`, job columns under their own names.
    private static var joinedColumns: String {
        let c = CompositionSQL.columns.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.map { "c.\($0) AS c_\($0)" }
        let j = JobSQL.columns.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.map { "j.\($0)" }
        return (c + j).joined(separator: ", ")
    }

    private static func decodeJoined(_ row: SQLRow) throws -> (Composition, Job) {
        (try CompositionSQL.decode(row, prefix: "c_"), try JobSQL.decode(row))
    }

    // MARK: The outbox

    /// Takes up to `limit` events due for delivery and locks them to `owner` for `lockSeconds`. Only the
    /// earliest undelivered event of each composition is due, so a receiver gets them in order.
    public func claimWebhooks(owner: String, limit: Int, lockSeconds: Double) async throws -> [WebhookEvent] {
        let skipLocked = lockRowsSkippingLocked
        return try await transaction { tx in
            let rows = try await tx.query(
                """
                SELECT \(CompositionSQL.webhookColumns) FROM stagemix_webhooks w
                WHERE w.delivered_at IS NULL AND w.abandoned_at IS NULL AND w.next_attempt_at <= $1 AND w.locked_until <= $1
                  AND NOT EXISTS (SELECT 1 FROM stagemix_webhooks p WHERE p.composition_id = w.composition_id AND p.seq < w.seq
                                  AND p.delivered_at IS NULL AND p.abandoned_at IS NULL)
                ORDER BY w.next_attempt_at, w.created_at LIMIT $2\(skipLocked)
                """,
                [.real(tx.now), .integer(limit)])
            var events: [WebhookEvent] = []
            for row in rows {
                let event = try CompositionSQL.decodeWebhook(row)
                _ = try await tx.query(
                    "UPDATE stagemix_webhooks SET locked_until = $2, locked_by = $3, attempts = attempts + 1 WHERE id = $1",
                    [.text(event.id), .real(tx.now + lockSeconds), .text(owner)])
                events.append(event)
            }
            return events
        }
    }

    /// Marks an event delivered (a 2xx answer). Any owner may: delivered is delivered.
    public func webhookDelivered(id: String) async throws {
        try await transaction { tx in
            _ = try await tx.query("UPDATE stagemix_webhooks SET delivered_at = $2, locked_until = 0, last_error = NULL WHERE id = $1",
                                   [.text(id), .real(tx.now)])
        }
    }

    /// Records a failed delivery: tried again `retryAfter` seconds from now, or given up (`retryAfter` nil).
    public func webhookFailed(id: String, owner: String, error: String, retryAfter: Double?) async throws {
        try await transaction { tx in
            if let retryAfter {
                _ = try await tx.query(
                    "UPDATE stagemix_webhooks SET next_attempt_at = $2, locked_until = 0, last_error = $3 WHERE id = $1 AND locked_by = $4",
                    [.text(id), .real(tx.now + retryAfter), .text(String(error.prefix(1000))), .text(owner)])
            } else {
                _ = try await tx.query(
                    "UPDATE stagemix_webhooks SET abandoned_at = $2, locked_until = 0, last_error = $3 WHERE id = $1 AND locked_by = $4",
                    [.text(id), .real(tx.now), .text(String(error.prefix(1000))), .text(owner)])
            }
        }
    }

    /// The events of a composition, in order (for `stagemix jobs` and tests).
    public func webhooks(compositionID: String) async throws -> [WebhookEvent] {
        try await read("SELECT \(CompositionSQL.webhookColumns) FROM stagemix_webhooks WHERE composition_id = $1 ORDER BY seq",
                       [.text(compositionID)]).map(CompositionSQL.decodeWebhook)
    }

    /// Reads the queue's clock and tables: for `/readyz`.
    public func ping() async throws {
        _ = try await read("SELECT COUNT(*) AS n FROM stagemix_compositions WHERE id = ''", [])
    }
}
