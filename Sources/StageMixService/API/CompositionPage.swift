import StageMixQueue

/// One page of `GET /v1/compositions`: newest first; `nextCursor` fetches the next page.
struct CompositionPage: Encodable {
    var data: [CompositionView]
    var nextCursor: String?
}
