import Foundation
import StageMixJSON

extension Layout {
    /// The layouts compiled into the binary from `Layouts/*.json`.
    public static var builtinNames: [String] { BuiltinLayouts.files.map(\.name) }

    /// The layout used when none is asked for.
    public static let defaultName = "grid"

    public static func builtin(named name: String) -> Layout? { builtins[name] }

    /// A built-in layout by name, or else a layout file at that path.
    public static func resolve(_ nameOrPath: String) throws(LayoutError) -> Layout {
        if let layout = builtin(named: nameOrPath) { return layout }
        guard FileManager.default.fileExists(atPath: nameOrPath) else {
            let names = builtinNames.joined(separator: ", ")
            throw LayoutError(file: nameOrPath, problems: [
                JSONProblem(file: nameOrPath, path: "", message: "no such file, and no built-in layout of that name (built-in: \(names))"),
            ])
        }
        return try load(contentsOf: URL(fileURLWithPath: nameOrPath))
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
