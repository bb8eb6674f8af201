import Foundation

/// Janus's rooms in the queue's database: events kept as they arrive (before the POST is answered),
/// rooms that ended claimed by one `serve` at a time, and the outcome recorded once.
extension SQLJobStore {
    /// Keeps `events` (in the order Janus sent them) for their rooms in one transaction: each event
    /// once (a retransmission is found by its digest and changes nothing), each room's state moved on.
    public func recordJanusEvents(_ events: [JanusRoomEvent], apiKey: String) async throws -> JanusIntake {
        let lock = lockRows
        return try await transaction { tx in
            var intake = JanusIntake()
            for event in events {
                try await Self.record(event, apiKey: apiKey, lock: lock, in: tx, intake: &intake)
            }
            return intake
        }
    }

    private static func record(_ event: JanusRoomEvent, apiKey: String, lock: String, in tx: any SQLJobTransaction,
                               intake: inout JanusIntake) async throws {
        if try await !tx.query("SELECT 1 AS seen FROM stagemix_janus_events WHERE api_key = $1 AND digest = $2",
                               [.text(apiKey), .text(event.digest)]).isEmpty {
            intake.duplicates += 1
            return
        }
        // A handle's own events name no room: the handle's join or publish said which.
        var room = event.room
        var publisher = event.publisher
        if let handle = event.handle, room == nil || publisher == nil,
           let known = try await tx.query("SELECT room, publisher FROM stagemix_janus_handles WHERE api_key = $1 AND emitter = $2 AND handle = $3",
                                          [.text(apiKey), .text(event.emitter), .text(handle)]).first {
            room = room ?? known["room"]?.string
            publisher = publisher ?? known["publisher"]?.string
        }
        guard let room else {
            intake.unmatched += 1
            return
        }
        let open = "SELECT \(JanusSQL.roomColumns) FROM stagemix_janus_rooms WHERE api_key = $1 AND emitter = $2 AND room = $3 AND ended_at IS NULL\(lock)"
        let key: [SQLValue] = [.text(apiKey), .text(event.emitter), .text(room)]
        var row = try await tx.query(open, key).first
        if row == nil {
            guard event.opensRoom else {
                intake.unmatched += 1
                return
            }
            _ = try await tx.query(
                """
                INSERT INTO stagemix_janus_rooms (\(JanusSQL.roomColumns))
                VALUES ($1, $2, $3, $4, $5, $6, 0, '', '', 0, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)
                ON CONFLICT (api_key, emitter, room) WHERE ended_at IS NULL DO NOTHING
                """,
                [.text(newJobID()), .text(apiKey), .text(event.emitter), .text(room), .real(tx.now), .integer(Int(event.timestampUs))])
            // Another process may have opened it in the meantime: whichever row is open now.
            row = try await tx.query(open, key).first
        }
        guard let row else { throw QueueError(.corruptRow, "janus room \(room) could not be opened") }
        var stored = try JanusSQL.decodeRoom(row)
        let inserted = try await tx.query(
            """
            INSERT INTO stagemix_janus_events (api_key, digest, room_id, seq, timestamp_us, body, received_at)
            VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (api_key, digest) DO NOTHING RETURNING digest
            """,
            [.text(apiKey), .text(event.digest), .text(stored.id), .integer(stored.eventCount + 1), .integer(Int(event.timestampUs)),
             .text(event.text), .real(tx.now)])
        guard !inserted.isEmpty else {
            intake.duplicates += 1
            return
        }
        intake.kept += 1
        if let handle = event.handle, let publisher, event.kind == .joined || event.kind == .published {
            _ = try await tx.query(
                """
                INSERT INTO stagemix_janus_handles (api_key, emitter, handle, room, publisher) VALUES ($1, $2, $3, $4, $5)
                ON CONFLICT (api_key, emitter, handle) DO UPDATE SET room = excluded.room, publisher = excluded.publisher
                """,
                [.text(apiKey), .text(event.emitter), .text(handle), .text(room), .text(publisher)])
        }
        stored.state.apply(event.kind, publisher: publisher, now: tx.now)
        let state = stored.state
        _ = try await tx.query(
            """
            UPDATE stagemix_janus_rooms SET event_count = event_count + 1, present = $2, publishing = $3, had_media = $4,
                idle_since = $5, destroyed_at = $6, first_event_us = CASE WHEN $7 < first_event_us THEN $7 ELSE first_event_us END
            WHERE id = $1
            """,
            [.text(stored.id), .text(JanusRoomState.column(state.present)), .text(JanusRoomState.column(state.publishing)),
             .integer(state.hadMedia ? 1 : 0), SQLValue(state.idleSince), SQLValue(state.destroyedAt), .integer(Int(event.timestampUs))])
    }

    /// Claims up to `limit` rooms that have ended (destroyed, or idle for `idleSeconds`), and rooms whose
    /// claimant went away without finishing them (the claim ran out), for `owner` for `claimSeconds`.
    /// A claimed room is ended: later events of that Janus room open a new one.
    public func claimEndedJanusRooms(owner: String, idleSeconds: Double, claimSeconds: Double, limit: Int) async throws -> [JanusRoom] {
        let skipLocked = lockRowsSkippingLocked
        return try await transaction { tx in
            let rows = try await tx.query(
                """
                SELECT \(JanusSQL.roomColumns) FROM stagemix_janus_rooms
                WHERE done_at IS NULL AND ((ended_at IS NULL AND (destroyed_at IS NOT NULL OR idle_since <= $1))
                                           OR (ended_at IS NOT NULL AND claim_until <= $2))
                ORDER BY opened_at LIMIT $3\(skipLocked)
                """,
                [.real(tx.now - idleSeconds), .real(tx.now), .integer(limit)])
            var rooms: [JanusRoom] = []
            for row in rows {
                var room = try JanusSQL.decodeRoom(row)
                room.endedAt = room.endedAt ?? tx.now
                _ = try await tx.query("UPDATE stagemix_janus_rooms SET ended_at = $2, claimed_by = $3, claim_until = $4 WHERE id = $1",
                                       [.text(room.id), .real(room.endedAt ?? tx.now), .text(owner), .real(tx.now + claimSeconds)])
                rooms.append(room)
            }
            return rooms
        }
    }

    /// Extends `owner`'s claim on a room it is handling; false if the claim was lost or the room is done.
    public func renewJanusRoomClaim(id: String, owner: String, claimSeconds: Double) async throws -> Bool {
        try await transaction { tx in
            try await !tx.query(
                "UPDATE stagemix_janus_rooms SET claim_until = $3 WHERE id = $1 AND claimed_by = $2 AND done_at IS NULL RETURNING id",
                [.text(id), .text(owner), .real(tx.now + claimSeconds)]).isEmpty
        }
    }

    /// Records what became of an ended room, once; false if another process finished it first.
    @discardableResult
    public func finishJanusRoom(id: String, owner: String, outcome: String, compositionID: String?) async throws -> Bool {
        try await transaction { tx in
            try await !tx.query(
                """
                UPDATE stagemix_janus_rooms SET done_at = $3, outcome = $4, composition_id = $5, claim_until = NULL
                WHERE id = $1 AND claimed_by = $2 AND done_at IS NULL RETURNING id
                """,
                [.text(id), .text(owner), .real(tx.now), .text(String(outcome.prefix(1000))), SQLValue(compositionID)]).isEmpty
        }
    }

    /// Forgets the events of rooms done for longer than `keepSeconds` (their capture holds them, as
    /// `janus-events.jsonl`), and the handles of Janus rooms with no room open or done within that time.
    /// The rooms' rows, with their outcomes, stay. How many events were removed.
    @discardableResult
    public func pruneJanusEvents(keepSeconds: Double) async throws -> Int {
        try await transaction { tx in
            let cutoff = tx.now - keepSeconds
            let events = try await tx.query(
                """
                DELETE FROM stagemix_janus_events WHERE room_id IN
                    (SELECT id FROM stagemix_janus_rooms WHERE done_at IS NOT NULL AND done_at <= $1)
                RETURNING seq
                """, [.real(cutoff)]).count
            _ = try await tx.query(
                """
                DELETE FROM stagemix_janus_handles WHERE NOT EXISTS
                    (SELECT 1 FROM stagemix_janus_rooms r WHERE r.api_key = stagemix_janus_handles.api_key
                     AND r.emitter = stagemix_janus_handles.emitter AND r.room = stagemix_janus_handles.room
                     AND (r.done_at IS NULL OR r.done_at > $1))
                RETURNING handle
                """, [.real(cutoff)])
            return events
        }
    }

    /// The number of events kept, all rooms together (for tests and operators).
    public func janusEventCount() async throws -> Int {
        try await read("SELECT COUNT(*) AS n FROM stagemix_janus_events", []).first?["n"]?.int ?? 0
    }

    /// The events kept for a room, as posted, in the order they arrived.
    public func janusRoomEvents(id: String) async throws -> [String] {
        try await read("SELECT body FROM stagemix_janus_events WHERE room_id = $1 ORDER BY seq", [.text(id)]).compactMap { $0["body"]?.string }
    }

    /// Every room, oldest first (for tests and `stagemix jobs`-like views).
    public func janusRooms() async throws -> [JanusRoom] {
        try await read("SELECT \(JanusSQL.roomColumns) FROM stagemix_janus_rooms ORDER BY opened_at, id", []).map(JanusSQL.decodeRoom)
    }
}
