/// Who made a request, once their token checked out: the API key and what it may do.
public struct Caller: Sendable {
    public var apiKey: String
    public var grants: Set<Grant>
}
