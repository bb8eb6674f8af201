/// Where two JSON values first differ as JSON values: objects whatever their members' order, numbers
/// by value (`1000`, `1000.0` and `1e3` are one number), strings scalar by scalar (two spellings of
/// `é` are two strings, as they are two byte sequences in the file). `compose --follow` uses it to
/// say where a recorder changed what an earlier `session.json` said.
public struct JSONDifference: Sendable {
    public var path: JSONPath
    /// The earlier value at `path`; `nil` where it had none (a member or element only the later has).
    public var earlier: JSONValue?
    /// The later value at `path`; `nil` where it has none (a member or element gone).
    public var later: JSONValue?

    public init(path: JSONPath, earlier: JSONValue?, later: JSONValue?) {
        self.path = path
        self.earlier = earlier
        self.later = later
    }

    /// The first difference, in the earlier value's document order (an object's members the earlier
    /// had, then those only the later has; an array's elements, then the longer one's rest); `nil`
    /// when the two are equal.
    public static func first(from earlier: JSONValue, to later: JSONValue, at path: JSONPath = .root) -> JSONDifference? {
        switch (earlier, later) {
        case (.null, .null):
            return nil
        case (.bool(let a), .bool(let b)):
            return a == b ? nil : JSONDifference(path: path, earlier: earlier, later: later)
        case (.number(let a), .number(let b)):
            let same = a.integer != nil && b.integer != nil ? a.integer == b.integer : a.value == b.value
            return same ? nil : JSONDifference(path: path, earlier: earlier, later: later)
        case (.string(let a), .string(let b)):
            return a.unicodeScalars.elementsEqual(b.unicodeScalars) ? nil : JSONDifference(path: path, earlier: earlier, later: later)
        case (.array(let a), .array(let b)):
            for (position, element) in a.enumerated() {
                let place = path.index(position)
                guard position < b.count else { return JSONDifference(path: place, earlier: element, later: nil) }
                if let found = first(from: element, to: b[position], at: place) { return found }
            }
            return b.count > a.count ? JSONDifference(path: path.index(a.count), earlier: nil, later: b[a.count]) : nil
        case (.object(let a), .object(let b)):
            for (key, value) in a.members {
                guard let other = b[key] else { return JSONDifference(path: path.key(key), earlier: value, later: nil) }
                if let found = first(from: value, to: other, at: path.key(key)) { return found }
            }
            if let added = b.members.first(where: { a[$0.key] == nil }) {
                return JSONDifference(path: path.key(added.key), earlier: nil, later: added.value)
            }
            return nil
        default:
            return JSONDifference(path: path, earlier: earlier, later: later)
        }
    }
}
