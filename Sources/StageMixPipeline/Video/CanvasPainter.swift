import Foundation
import StageMixCapture
import StageMixPlan
import StageMixLayout
import StageMixMedia
import StageMixTime

/// Paints the composite for one instant: background, region fills, then each tile, scaling each
/// picture straight from the decoder's frame into its place on the canvas.
final class CanvasPainter {
    let canvasSize: CanvasSize
    private let capture: Capture
    private var sources: [String: TrackVideoSource] = [:]
    private var scalers: [String: Scaler] = [:]
    /// What the composition could not do as asked but went on without (no font for names).
    private(set) var warnings: [String] = []
    /// Media files that could not be read, with why; the composition goes on without them.
    private(set) var lostMedia: [String: String] = [:]
    let decoded = DecodeCounter()
    private let ledger: LossLedger
    /// How long one output frame lasts, for noting lost pictures frame by frame.
    private let frameSeconds: Double
    /// Where a tile showed another layer than planned, because the planned one had no picture there.
    let standIns: LayerStandInLog
    private let frameMs: Int
    /// Names on placeholders and labels, rasterised once each.
    private let typesetter: NameTypesetter
    private let labels: LabelPainter

    init(capture: Capture, canvas size: CanvasSize, fps: Int, ledger: LossLedger,
         typesetter: NameTypesetter = NameTypesetter()) {
        self.capture = capture
        canvasSize = size
        self.ledger = ledger
        frameSeconds = 1 / Double(max(1, fps))
        frameMs = 1000 / max(1, fps)
        standIns = LayerStandInLog(frameMs: frameMs)
        self.typesetter = typesetter
        labels = LabelPainter(typesetter: typesetter)
        // Without a font the composition goes on, without names; report.json's warnings say why.
        if let problem = typesetter.problem { warnings.append("names are not drawn: \(problem)") }
    }

    /// A canvas this compositor can paint.
    func makeCanvas() throws(MediaError) -> CanvasFrame {
        try CanvasFrame(width: canvasSize.width, height: canvasSize.height)
    }

    /// What a canvas shows: the interval painted on it last, and the picture each of its tiles got.
    /// What is unchanged is not painted again. Canvases take turns, so each remembers its own.
    private struct CanvasState {
        var interval: PlanInterval?
        var pictures: [String: VideoFrame] = [:]
        /// Where each tile's picture was drawn: a picture that changes size or turns mid-file is fitted
        /// elsewhere, and what the old one covered must not stay beside it.
        var placements: [String: Rect] = [:]
    }
    private var states: [ObjectIdentifier: CanvasState] = [:]

    /// Draws `interval` on `canvas` as it looks at time `t` (seconds of the plan's time: the output's,
    /// which reads the session `interval.sessionOffsetMs` later), charging decoding and painting to `clock`.
    func paint(_ interval: PlanInterval, background: RGBColor, at t: Double,
               on canvas: CanvasFrame, clock: inout StageClock) throws(MediaError) {
        let sessionT = t + MediaTime.seconds(ms: interval.sessionOffsetMs ?? 0)
        var state = states[ObjectIdentifier(canvas)] ?? CanvasState()
        defer { states[ObjectIdentifier(canvas)] = state }
        let sameLayout = state.interval == interval
        if !sameLayout {
            state.interval = interval
            state.pictures = [:]
            state.placements = [:]
            // Decoders of tracks no tile shows close; showing them again reopens at a keyframe. The set
            // depends on the interval alone, so it is settled where the interval changes, not every frame.
            let showing = Set(interval.tiles.filter { $0.show != .placeholder }.compactMap(\.trackId))
            sources = sources.filter { showing.contains($0.key) }
            try canvas.fill(color: background)
            for region in interval.regions {
                try canvas.fill(rect: region.rect, color: region.color)
            }
        }
        clock.charge(.videoCompose)
        // A tile drawn again this frame paints over whatever is drawn after it (a picture-in-picture
        // inset, above it or later at the same z): those regions are refilled and their tiles drawn
        // again, even where their own picture is unchanged. Regions are in drawing order, as tiles are.
        let order = Dictionary(interval.regions.enumerated().map { ($0.element.region, $0.offset) }, uniquingKeysWith: { a, _ in a })
        var overdrawn: Set<String> = [], refilled: Set<String> = []
        func drawn(_ area: Rect, by region: String) {
            let after = (order[region] ?? interval.regions.count) + 1
            for fill in interval.regions.dropFirst(after) where fill.rect.intersects(area) { overdrawn.insert(fill.region) }
        }
        for tile in interval.tiles {
            let key = Self.key(tile)
            let covered = overdrawn.contains(tile.region)
            if covered, !refilled.contains(tile.region), let index = order[tile.region] {
                let fill = interval.regions[index]
                try canvas.fill(rect: fill.rect, color: fill.color)
                refilled.insert(tile.region)
                drawn(fill.rect, by: fill.region)
            }
            let frame = tile.show == .placeholder ? nil : tile.trackId.flatMap { trackId in
                tile.layer.flatMap {
                    picture(trackId: trackId, quality: $0.quality, hold: tile.show == .heldFrame, at: sessionT, outputT: t)
                }
            }
            clock.charge(.videoDecode)
            defer { clock.charge(.videoCompose) }
            guard let frame else {
                if !sameLayout || state.pictures[key] != nil || covered {
                    try PlaceholderCard.paint(name: drawable(tile.name, of: tile.participantId), in: tile.rect, on: canvas, typesetter: typesetter)
                    try paintLabel(of: tile, in: tile.rect, on: canvas)
                    state.pictures[key] = nil
                    state.placements[key] = tile.rect
                    drawn(tile.rect, by: tile.region)
                }
                continue
            }
            // A held frame, or a source slower than the output: the canvas already shows it.
            if sameLayout, !covered, state.pictures[key] === frame { continue }
            state.pictures[key] = frame
            // Fitted as shown: a phone's portrait picture stored landscape with a 90° display matrix is portrait.
            let placement = Self.placement(of: CanvasSize(width: frame.displayWidth, height: frame.displayHeight), in: tile)
            // Drawn elsewhere than before (a new size or orientation, or after the placeholder card): the
            // tile is its region's ground again first, with no trace of the old picture or its label.
            if sameLayout, let before = state.placements[key], before != placement.destination {
                try canvas.fill(rect: tile.rect, color: Self.ground(of: tile, in: interval, background: background))
                drawn(tile.rect, by: tile.region)
            }
            state.placements[key] = placement.destination
            try scaler(for: key).scale(frame, into: canvas, rect: placement.destination, sourceCrop: placement.sourceCrop)
            // On the picture, not on a `contain` tile's bars: those are painted only when the layout
            // changes, so a translucent plate over them would darken with every new frame.
            try paintLabel(of: tile, in: placement.destination, on: canvas)
            drawn(placement.destination, by: tile.region)
        }
    }

    /// Over the picture just drawn: a tile not repainted keeps the label it has, and a translucent
    /// plate must not be laid twice over the same picture.
    private func paintLabel(of tile: PlannedTile, in area: Rect, on canvas: CanvasFrame) throws(MediaError) {
        guard var label = tile.label else { return }
        label.text = drawable(label.text, of: tile.participantId)
        try labels.paint(label, in: area, on: canvas)
    }

    /// Participants whose name no installed font draws whole, said once each in the warnings.
    private var undrawable: Set<String> = []

    /// `name` as drawn: itself, or the participant's id when no font of the chain has every character
    /// of it (never boxes for missing glyphs, and never a name with letters silently left out).
    private func drawable(_ name: String, of participant: String) -> String {
        guard typesetter.problem == nil, !typesetter.canDraw(name) else { return name }
        // Emoji and other symbols no font has are left out of a name whose letters are all drawn ("Ana 🎉" is "Ana").
        let letters = String(name.filter { character in
            !character.unicodeScalars.allSatisfy { $0.properties.generalCategory == .otherSymbol || $0.properties.isEmoji && $0.value > 0xFF
                || $0.properties.isDefaultIgnorableCodePoint }
        }).trimmingCharacters(in: .whitespaces)
        if !letters.isEmpty, typesetter.canDraw(letters) { return letters }
        if undrawable.insert(participant).inserted {
            warnings.append("the name of \(participant) has characters no installed font draws; it is shown as the participant id")
        }
        return participant
    }

    /// The picture of `trackId` at session time `t`; stand-ins are logged at output time `outputT`.
    private func picture(trackId: String, quality: LayerQuality, hold: Bool, at t: Double, outputT: Double) -> VideoFrame? {
        let source: TrackVideoSource
        if let existing = sources[trackId] {
            source = existing
        } else {
            guard let track = capture.track(trackId) else { return nil }
            source = TrackVideoSource(track: track, capture: capture, counter: decoded, ledger: ledger, frameSeconds: frameSeconds)
            sources[trackId] = source
        }
        defer { for (file, failure) in source.failures { lostMedia[file] = "\(trackId): \(failure.error)" } }
        if hold, let held = source.lastFrame { return held }
        let frame = source.frame(layer: quality, at: t)
        if let shown = source.standingIn {
            standIns.record(trackId: trackId, planned: quality, shown: shown, atMs: MediaTime.ms(seconds: outputT), frameMs: frameMs)
        }
        return frame
    }

    /// Where a picture of `size` goes in `tile`, and which part of it (nil: all of it).
    ///
    /// A picture at most 3 % larger than the area it fills (a 640x360 layer in a 636x356 tile) is
    /// cropped to that area and copied as it is: the few edge pixels lost are invisible, and the
    /// copy costs a fraction of a scale.
    static func placement(of size: CanvasSize, in tile: PlannedTile) -> (destination: Rect, sourceCrop: Rect?) {
        let fit = FitGeometry.fit(content: size, into: tile.rect, mode: tile.fit)
        let target = fit.destination
        let slack = 1.03
        if size.width >= target.width, size.height >= target.height,
           Double(size.width) <= Double(target.width) * slack, Double(size.height) <= Double(target.height) * slack {
            let x = ((size.width - target.width) / 2) & ~1, y = ((size.height - target.height) / 2) & ~1
            return (target, Rect(x: x, y: y, width: target.width, height: target.height))
        }
        let crop = fit.sourceCrop
        let whole = crop.x == 0 && crop.y == 0 && crop.width == size.width && crop.height == size.height
        return (target, whole ? nil : crop)
    }

    /// What lies under a tile: its region's fill, or the canvas's background.
    static func ground(of tile: PlannedTile, in interval: PlanInterval, background: RGBColor) -> RGBColor {
        interval.regions.last { $0.region == tile.region }?.color ?? background
    }

    static func key(_ tile: PlannedTile) -> String { "\(tile.region)/\(tile.participantId)/\(tile.source.rawValue)" }

    /// One scaler per tile position, so each keeps its cached swscale context.
    private func scaler(for key: String) -> Scaler {
        if let scaler = scalers[key] { return scaler }
        let scaler = Scaler()
        scalers[key] = scaler
        return scaler
    }

}
