import Foundation
import StageMixJSON

extension Layout {
    /// The layouts compiled into the binary from `Layouts/*.json`.
    public static var builtinNames: [String] { BuiltinLayouts.files.map(\.name) }

    /// The layout used when none is asked for.
    public static let defaultName = "grid"

    public static func builtin(named name: String) -> Layout? { builtins[name] }

    /// How `--layout` names a Twilio `VideoLayout` file: `twilio:FILE`.
    public static let twilioPrefix = "twilio:"

    /// A built-in layout by name, a Twilio layout (`twilio:FILE`, or a file of that shape), or else a
    /// layout file at that path. `twilioResolution` (`--resolution`) replaces a Twilio file's resolution,
    /// since Twilio's regions are in pixels and are checked against it.
    public static func resolve(_ nameOrPath: String, twilioResolution: CanvasSize? = nil) throws(LayoutError) -> Layout {
        if let layout = builtin(named: nameOrPath) { return layout }
        if nameOrPath.hasPrefix(twilioPrefix) {
            return try loadTwilio(path: String(nameOrPath.dropFirst(twilioPrefix.count)), resolution: twilioResolution)
        }
        if isTwilioFile(nameOrPath) { return try loadTwilio(path: nameOrPath, resolution: twilioResolution) }
        guard FileManager.default.fileExists(atPath: nameOrPath) else {
            let names = builtinNames.joined(separator: ", ")
            throw LayoutError(file: nameOrPath, problems: [
                JSONProblem(file: nameOrPath, path: "", message: "no such file, and no built-in layout of that name (built-in: \(names))"),
            ])
        }
        return try load(contentsOf: URL(fileURLWithPath: nameOrPath))
    }

    /// Whether `nameOrPath` names a Twilio layout: `twilio:FILE`, or a JSON file of a Twilio layout's shape.
    public static func isTwilio(_ nameOrPath: String) -> Bool {
        nameOrPath.hasPrefix(twilioPrefix) || (builtin(named: nameOrPath) == nil && isTwilioFile(nameOrPath))
    }

    private static func isTwilioFile(_ path: String) -> Bool {
        guard let data = FileManager.default.contents(atPath: path), data.count <= 1 << 20 else { return false }
        return TwilioVideoLayout.looksLikeTwilio(data)
    }

    private static func loadTwilio(path: String, resolution: CanvasSize?) throws(LayoutError) -> Layout {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw LayoutError(file: path, problems: [JSONProblem(file: path, path: "", message: "cannot read the Twilio layout file")])
        }
        let twilio = try TwilioVideoLayout.parse(data, file: path, resolution: resolution)
        return Layout(twilio: twilio, name: "twilio:" + URL(fileURLWithPath: path).lastPathComponent)
    }

    private static let builtins: [String: Layout] = Dictionary(uniqueKeysWithValues: BuiltinLayouts.files.map { file in
        do {
            return (file.name, try parse(Data(file.json.utf8), file: "Layouts/\(file.name).json"))
        } catch {
            // The embedding test parses every file, so this is a build that skipped its tests.
            fatalError("built-in layout is invalid:\n\(error)")
        }
    })
}
