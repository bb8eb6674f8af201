/// Conversions for `JSONWalker.field`, each `nil` when the value is not of its type.
public enum JSONConvert {
    public static func string(_ value: JSONValue) -> String? {
        if case .string(let s) = value { return s }
        return nil
    }

    public static func nonEmptyString(_ value: JSONValue) -> String? {
        if case .string(let s) = value, !s.isEmpty { return s }
        return nil
    }

    public static func bool(_ value: JSONValue) -> Bool? {
        if case .bool(let b) = value { return b }
        return nil
    }

    public static func array(_ value: JSONValue) -> [JSONValue]? {
        if case .array(let a) = value { return a }
        return nil
    }

    /// An integer within `range`; a larger one (even beyond `Int`, or `1e300`) is rejected, not rounded.
    public static func integer(in range: ClosedRange<Int>) -> (JSONValue) -> Int? {
        { value in
            if case .number(let n) = value, let i = n.integer, range.contains(i) { return i }
            return nil
        }
    }

    public static func enumeration<E: RawRepresentable>(_: E.Type) -> (JSONValue) -> E? where E.RawValue == String {
        { value in string(value).flatMap(E.init(rawValue:)) }
    }
}
