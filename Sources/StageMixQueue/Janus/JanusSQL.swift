/// The tables of Janus's rooms, in the queue's database, so that any `serve` process takes Janus's
/// events and any one of them ends a room, once: `stagemix_janus_rooms` (one row per room from its
/// first join to its end: a Janus room used again later is a new row), `stagemix_janus_events` (each
/// event kept, once, in arrival order) and `stagemix_janus_handles` (which room and publisher a handle
/// is, for the handle's own events, which do not name the room).
enum JanusSQL {
    static let roomColumns = """
        id, api_key, emitter, room, opened_at, first_event_us, event_count, present, publishing, had_media, \
        idle_since, destroyed_at, ended_at, claimed_by, claim_until, done_at, outcome, composition_id
        """

    static func createStatements(real: String, integer: String) -> [String] {
        [
            """
            CREATE TABLE IF NOT EXISTS stagemix_janus_rooms (
                id TEXT PRIMARY KEY,
                api_key TEXT NOT NULL,
                emitter TEXT NOT NULL,
                room TEXT NOT NULL,
                opened_at \(real) NOT NULL,
                first_event_us \(integer) NOT NULL,
                event_count \(integer) NOT NULL,
                present TEXT NOT NULL,
                publishing TEXT NOT NULL,
                had_media \(integer) NOT NULL,
                idle_since \(real),
                destroyed_at \(real),
                ended_at \(real),
                claimed_by TEXT,
                claim_until \(real),
                done_at \(real),
                outcome TEXT,
                composition_id TEXT
            )
            """,
            // One open row per Janus room: the events of a room in progress all go to it.
            "CREATE UNIQUE INDEX IF NOT EXISTS stagemix_janus_rooms_open ON stagemix_janus_rooms (api_key, emitter, room) WHERE ended_at IS NULL",
            "CREATE INDEX IF NOT EXISTS stagemix_janus_rooms_pending ON stagemix_janus_rooms (opened_at) WHERE done_at IS NULL",
            """
            CREATE TABLE IF NOT EXISTS stagemix_janus_events (
                api_key TEXT NOT NULL,
                digest TEXT NOT NULL,
                room_id TEXT NOT NULL,
                seq \(integer) NOT NULL,
                timestamp_us \(integer) NOT NULL,
                body TEXT NOT NULL,
                received_at \(real) NOT NULL,
                PRIMARY KEY (api_key, digest)
            )
            """,
            "CREATE INDEX IF NOT EXISTS stagemix_janus_events_by_room ON stagemix_janus_events (room_id, seq)",
            """
            CREATE TABLE IF NOT EXISTS stagemix_janus_handles (
                api_key TEXT NOT NULL,
                emitter TEXT NOT NULL,
                handle TEXT NOT NULL,
                room TEXT NOT NULL,
                publisher TEXT NOT NULL,
                PRIMARY KEY (api_key, emitter, handle)
            )
            """,
        ]
    }

    static func decodeRoom(_ row: SQLRow) throws -> JanusRoom {
        func text(_ name: String) throws -> String { try row.required(name, of: "janus room", \.string) }
        var state = JanusRoomState()
        state.present = JanusRoomState.ids(row["present"]?.string)
        state.publishing = JanusRoomState.ids(row["publishing"]?.string)
        state.hadMedia = (row["had_media"]?.int ?? 0) != 0
        state.idleSince = row["idle_since"]?.double
        state.destroyedAt = row["destroyed_at"]?.double
        return JanusRoom(
            id: try text("id"), apiKey: try text("api_key"), emitter: try text("emitter"), room: try text("room"),
            openedAt: try row.required("opened_at", of: "janus room", \.double),
            firstEventUs: Int64(try row.required("first_event_us", of: "janus room", \.int)),
            eventCount: row["event_count"]?.int ?? 0, state: state, endedAt: row["ended_at"]?.double, doneAt: row["done_at"]?.double,
            outcome: row["outcome"]?.string, compositionID: row["composition_id"]?.string)
    }
}
