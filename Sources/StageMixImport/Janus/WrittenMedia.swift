import Foundation

/// What a recording writer made of its packets: the file (nil when nothing was written), where its
/// first sample and its end are in ticks, the largest picture, and what was lost or odd.
struct WrittenMedia {
    var file: URL?
    var firstTicks: Int64
    var endTicks: Int64
    var width: Int?
    var height: Int?
    var losses: [JanusLoss]
    var warnings: [String]
}
