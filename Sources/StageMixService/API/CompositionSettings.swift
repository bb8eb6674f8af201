public import Foundation
import StageMixJSON
import StageMixLayout
public import StageMixOptions

/// How to compose, apart from what: a request's `layout` and `options` as `POST /v1/compositions`
/// takes them, checked the same way (every error names its field). Also what `--janus-composition`
/// holds: one object with `layout` and `options`, used for every Janus room's composition.
public struct CompositionSettings: Sendable {
    public var layout: String
    public var options: ComposeOptions
    /// Documents given inline (prices, tiers, edits), kept where the job reads them once it is queued.
    public var inline: [InlineDocument]

    /// `layout` and `options` of a request's body (its other members are the request's).
    init(_ body: JSONObject, tables: InlineTables) throws(Problem) {
        layout = ComposeOptions.defaultLayout
        if let value = body["layout"] {
            guard case .string(let name) = value else { throw Problem.invalid("layout", "must be a string, not \(value.kind)") }
            guard Layout.builtinNames.contains(name) else {
                throw Problem.invalid("layout", "must be one of \(Layout.builtinNames.joined(separator: ", ")); got \(name.prefix(60))")
            }
            layout = name
        }
        var options = ComposeOptions(layout: layout)
        var inline: [InlineDocument] = []
        if let value = body["options"] {
            guard case .object(let fields) = value else { throw Problem.invalid("options", "must be an object, not \(value.kind)") }
            for (name, value) in fields.members.sorted(by: { $0.key < $1.key }) {
                try CompositionRequest.set(name, value, in: &options, inline: &inline, tables: tables)
            }
        }
        // Words are compared lower-cased, as the queue normalises them: "FAST" is "fast".
        options = options.normalised(relativeTo: "/")
        do {
            try options.validate()
        } catch let error as OptionError {
            throw CompositionRequest.invalid(error)
        } catch {
            throw Problem.invalid("options", "\(error)")
        }
        self.options = options
        self.inline = inline
    }

    /// A document holding only `layout` and `options` (`--janus-composition`), checked as a request's.
    public init(document data: Data, tables: InlineTables) throws(Problem) {
        let value: JSONValue
        do {
            value = try JSONTextParser.parse(Array(data))
        } catch {
            throw Problem.malformed("not JSON: \("\(error)".prefix(200))")
        }
        guard case .object(let body) = value else { throw Problem.malformed("must be a JSON object, not \(value.kind)") }
        if let duplicate = value.duplicateKeyPath() {
            throw Problem.invalid(duplicate.fieldName, "is given more than once; each field may appear once")
        }
        if let unknown = body.members.map(\.key).sorted().first(where: { $0 != "layout" && $0 != "options" }) {
            throw Problem.invalid(JSONPath.root.key(unknown).fieldName, "unknown field; the fields are layout, options")
        }
        try self.init(body, tables: tables)
    }
}
