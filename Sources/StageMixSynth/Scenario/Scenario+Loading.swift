public import Foundation
import StageMixMedia

extension Scenario {
    /// A built-in scenario by name, or a scenario JSON file at that path.
    public static func resolve(_ nameOrPath: String) throws(SynthError) -> Scenario {
        if let builtin = builtin(nameOrPath) { return builtin }
        let url = URL(fileURLWithPath: nameOrPath)
        guard let data = try? Data(contentsOf: url) else {
            throw SynthError("no built-in scenario named '\(nameOrPath)' (built-in: \(builtinNames.joined(separator: ", "))) and no readable file there")
        }
        return try decode(data, file: nameOrPath)
    }

    /// Parses scenario JSON (see docs/synth.md).
    public static func decode(_ data: Data, file: String = "scenario") throws(SynthError) -> Scenario {
        do {
            return try JSONDecoder().decode(Scenario.self, from: data)
        } catch let DecodingError.keyNotFound(key, context) {
            throw SynthError("\(file): \(Self.path(context.codingPath)): missing member '\(key.stringValue)'")
        } catch let DecodingError.typeMismatch(type, context) {
            throw SynthError("\(file): \(Self.path(context.codingPath)): expected \(type): \(context.debugDescription)")
        } catch let DecodingError.valueNotFound(type, context) {
            throw SynthError("\(file): \(Self.path(context.codingPath)): expected \(type), found null")
        } catch let DecodingError.dataCorrupted(context) {
            throw SynthError("\(file): \(Self.path(context.codingPath)): \(context.debugDescription)")
        } catch {
            throw SynthError("\(file): \(error)")
        }
    }

    private static func path(_ keys: [any CodingKey]) -> String {
        "$" + keys.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
    }

    /// Problems that stop synthesis before any media is written (the events are checked
    /// against the capture contract separately).
    public var problems: [String] {
        var found: [String] = []
        if durationMs <= 0 { found.append("durationMs must be positive, got \(durationMs)") }
        if !(1...120).contains(frameRate) { found.append("frameRate must be 1...120, got \(frameRate)") }
        if keyframeInterval < 1 { found.append("keyframeInterval must be at least 1, got \(keyframeInterval)") }
        var trackIds = Set<String>()
        for (i, p) in participants.enumerated() {
            if (try? RGBColor(hex: p.color)) == nil { found.append("participants[\(i)].color must be #RRGGBB, got '\(p.color)'") }
            if let hz = p.toneHz, hz < 0 || hz >= 24_000 { found.append("participants[\(i)].toneHz must be 0..<24000, got \(hz)") }
            for (j, t) in p.tracks.enumerated() {
                let at = "participants[\(i)].tracks[\(j)]"
                if !trackIds.insert(t.id).inserted { found.append("\(at).id '\(t.id)' is used twice") }
                if let color = t.color, (try? RGBColor(hex: color)) == nil { found.append("\(at).color must be #RRGGBB, got '\(color)'") }
                if t.kind == .audio, t.layers != nil { found.append("\(at): an audio track has no layers") }
                if t.kind == .video, t.effectiveLayers.isEmpty { found.append("\(at): a video track needs at least one layer") }
                for (k, l) in t.effectiveLayers.enumerated() where l.width < 2 || l.height < 2 || l.width % 2 != 0 || l.height % 2 != 0 {
                    found.append("\(at).layers[\(k)]: size must be even and at least 2x2, got \(l.width)x\(l.height)")
                }
            }
        }
        return found
    }
}
