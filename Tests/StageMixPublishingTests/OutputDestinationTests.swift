import Foundation
import Testing
import StageMixPublishing
import StageMixStorage

/// An output destination is one URL-like value: a folder's path (or `file://` URL), or an `s3://` prefix.
struct OutputDestinationTests {
    @Test func aPathIsAnAbsoluteStandardisedFolder() throws {
        #expect(try OutputDestination(parsing: "out/./panel/", relativeTo: "/work").folder?.path == "/work/out/panel")
        #expect(try OutputDestination(parsing: "out/panel", relativeTo: "/work") == OutputDestination(parsing: "/work/out/x/../panel/"))
        #expect(try OutputDestination(parsing: "/srv/a/../b").description == "/srv/b")
        #expect(try OutputDestination(parsing: "file:///srv/out").folder?.path == "/srv/out")
    }

    @Test func anS3URLIsABucketPrefixWithoutItsFinalSlash() throws {
        let destination = try OutputDestination(parsing: "s3://outputs/shows/c-1/")
        #expect(destination == .bucket(S3Location(bucket: "outputs", key: "shows/c-1")))
        #expect(destination.description == "s3://outputs/shows/c-1" && destination.folder == nil)
        #expect(destination.location(of: "hls/index.m3u8") == "s3://outputs/shows/c-1/hls/index.m3u8")
        #expect(try JSONDecoder().decode([OutputDestination].self, from: JSONEncoder().encode([destination])) == [destination])
        #expect(throws: OutputRefusal.self) { try OutputDestination(parsing: "s3://Bad_Bucket/x") }
    }

    @Test func aDestinationOfAnUnknownKindIsRefusedWithItsName() {
        #expect {
            _ = try OutputDestination(parsing: "gs://bucket/out")
        } throws: { error in
            guard let refusal = error as? OutputRefusal else { return false }
            return refusal.reason == .unsupportedDestination && refusal.message.contains("gs://bucket/out")
        }
    }

    @Test func itIsStoredAsTheStringItIsShownAs() throws {
        let destination = try OutputDestination(parsing: "/srv/out/c-1")
        let data = try JSONEncoder().encode([destination])
        #expect(String(decoding: data, as: UTF8.self) == #"["\/srv\/out\/c-1"]"#)
        #expect(try JSONDecoder().decode([OutputDestination].self, from: data) == [destination])
    }

    @Test func itsPublisherStagesBesideTheFolder() throws {
        let publisher = try OutputDestination(parsing: "/srv/out/c-1").publisher(overwrite: false)
        #expect(publisher.stagingPath().deletingLastPathComponent().path == "/srv/out")
        #expect(publisher.stagingPath().lastPathComponent.hasPrefix(".c-1.stagemix-"))
    }
}
