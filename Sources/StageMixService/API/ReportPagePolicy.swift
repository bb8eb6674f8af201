/// The Content-Security-Policy `report.html` is served with: its own inline style and script, images
/// and media from the same origin, and nothing from anywhere else.
enum ReportPagePolicy {
    static let header = "default-src 'none'; img-src 'self' data:; media-src 'self' data:; style-src 'unsafe-inline'; script-src 'unsafe-inline'"
}
