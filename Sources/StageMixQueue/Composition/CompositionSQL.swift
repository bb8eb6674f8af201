import StageMixPublishing
/// The tables of the HTTP API, in the queue's database so that a state change and the webhook
/// event it causes commit together: `stagemix_compositions` (one row per composition, keyed by its
/// job's id) and `stagemix_webhooks`, the outbox of events waiting to be delivered.
enum CompositionSQL {
    static let columns = """
        id, api_key, request_key, request_digest, idempotency_key, callback_url, capture, layout, output_directory, \
        created_at, started_at, twilio
        """

    static let webhookColumns = """
        id, composition_id, seq, event_type, body, url, api_key, attempts, next_attempt_at, locked_until, \
        locked_by, delivered_at, abandoned_at, last_error, created_at, delivery
        """

    static func createStatements(real: String, integer: String) -> [String] {
        [
            """
            CREATE TABLE IF NOT EXISTS stagemix_compositions (
                id TEXT PRIMARY KEY,
                api_key TEXT NOT NULL,
                request_key TEXT NOT NULL UNIQUE,
                request_digest TEXT NOT NULL,
                idempotency_key TEXT,
                callback_url TEXT,
                capture TEXT NOT NULL,
                layout TEXT NOT NULL,
                output_directory TEXT NOT NULL,
                created_at \(real) NOT NULL,
                started_at \(real),
                twilio TEXT
            )
            """,
            "CREATE INDEX IF NOT EXISTS stagemix_compositions_by_key ON stagemix_compositions (api_key, created_at, id)",
            """
            CREATE TABLE IF NOT EXISTS stagemix_webhooks (
                id TEXT PRIMARY KEY,
                composition_id TEXT NOT NULL,
                seq \(integer) NOT NULL,
                event_type TEXT NOT NULL,
                body TEXT NOT NULL,
                url TEXT NOT NULL,
                api_key TEXT NOT NULL,
                attempts \(integer) NOT NULL,
                next_attempt_at \(real) NOT NULL,
                locked_until \(real) NOT NULL,
                locked_by TEXT,
                delivered_at \(real),
                abandoned_at \(real),
                last_error TEXT,
                created_at \(real) NOT NULL,
                delivery TEXT,
                UNIQUE (composition_id, seq)
            )
            """,
            "CREATE INDEX IF NOT EXISTS stagemix_webhooks_pending ON stagemix_webhooks (next_attempt_at) WHERE delivered_at IS NULL AND abandoned_at IS NULL",
        ]
    }

    /// Columns added after the tables were first made, each nullable: a database made by an earlier
    /// version gains them when opened.
    static let addedColumns: [(table: String, column: String, type: String)] = [
        ("stagemix_compositions", "twilio", "TEXT"),
        ("stagemix_webhooks", "delivery", "TEXT"),
    ]

    static func decode(_ row: SQLRow, prefix: String = "") throws -> Composition {
        func text(_ name: String) throws -> String { try row.required(prefix + name, of: "composition", \.string) }
        let createdAt = try row.required(prefix + "created_at", of: "composition", \.double)
        let destination: OutputDestination
        do {
            destination = try OutputDestination(parsing: try text("output_directory"), relativeTo: "/")
        } catch let refusal as OutputRefusal {
            throw QueueError(.corruptRow, "composition's destination: \(refusal)")
        }
        return Composition(
            id: try text("id"), apiKey: try text("api_key"), requestKey: try text("request_key"), requestDigest: try text("request_digest"),
            idempotencyKey: row[prefix + "idempotency_key"]?.string, callbackURL: row[prefix + "callback_url"]?.string,
            capture: try text("capture"), layout: try text("layout"), destination: destination,
            createdAt: createdAt, startedAt: row[prefix + "started_at"]?.double,
            twilio: try TwilioParameters.decode(row[prefix + "twilio"]?.string))
    }

    static func decodeWebhook(_ row: SQLRow) throws -> WebhookEvent {
        func text(_ name: String) throws -> String { try row.required(name, of: "webhook", \.string) }
        func real(_ name: String) throws -> Double { try row.required(name, of: "webhook", \.double) }
        return WebhookEvent(
            id: try text("id"), compositionID: try text("composition_id"), sequence: row["seq"]?.int ?? 0,
            type: try text("event_type"), body: try text("body"), url: try text("url"), apiKey: try text("api_key"),
            attempts: row["attempts"]?.int ?? 0, nextAttemptAt: try real("next_attempt_at"),
            deliveredAt: row["delivered_at"]?.double, abandonedAt: row["abandoned_at"]?.double,
            lastError: row["last_error"]?.string, createdAt: try real("created_at"),
            delivery: WebhookDelivery(stored: row["delivery"]?.string))
    }
}
