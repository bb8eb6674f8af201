// swift-tools-version:6.0
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    // A module's public surface is what it means to offer: an import is internal unless written `public import`.
    .enableUpcomingFeature("InternalImportsByDefault"),
]

/// StageMixMedia's per-pixel loops (colour conversion) are optimised in debug builds too: at -Onone they
/// cost more than the encoder, and every test that composes media would measure that instead.
let mediaKernelSettings: [SwiftSetting] = [.unsafeFlags(["-O"], .when(configuration: .debug))]

let package = Package(
    name: "StageMix",
    platforms: [.macOS(.v14)],
    products: [
        // Composing: what scripts/compose-sample builds. No PostgreSQL, SQLite or HTTP server; an HTTP client
        // (AsyncHTTPClient) for captures and outputs in object storage.
        .executable(name: "stagemix", targets: ["stagemix"]),
        // The queue, the worker and the HTTP API; `stagemix serve|worker|enqueue|jobs|token` run it.
        .executable(name: "stagemix-service", targets: ["stagemix-service"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/vapor/sqlite-nio", from: "1.13.2"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-crypto", from: "4.0.0"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/vapor/jwt-kit", from: "5.7.1"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
    ],
    targets: [
        // C at the edge: FFmpeg and libopus, behind StageMixMedia only.
        .systemLibrary(name: "CFFmpeg", path: "Sources/CFFmpeg",
                       providers: [.apt(["libavformat-dev", "libavcodec-dev", "libswscale-dev", "libswresample-dev", "libavutil-dev"])]),
        .systemLibrary(name: "COpus", path: "Sources/COpus", providers: [.apt(["libopus-dev"])]),
        // zlib, for the gzip bodies Janus's event handler posts; behind StageMixService's GzipBody only.
        .systemLibrary(name: "CZlib", path: "Sources/CZlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CEbur128", path: "Sources/CEbur128", providers: [.apt(["libebur128-dev"])]),
        // FreeType, for name labels and placeholder names; also behind StageMixMedia only.
        .systemLibrary(name: "CFreeType", path: "Sources/CFreeType", pkgConfig: "freetype2",
                       providers: [.apt(["libfreetype-dev"])]),
        // HarfBuzz shapes names (joining, reordering, marks) over FreeType's faces; FriBidi orders mixed-direction text.
        .systemLibrary(name: "CHarfBuzz", path: "Sources/CHarfBuzz", pkgConfig: "harfbuzz", providers: [.apt(["libharfbuzz-dev"])]),
        .systemLibrary(name: "CFriBidi", path: "Sources/CFriBidi", pkgConfig: "fribidi", providers: [.apt(["libfribidi-dev"])]),

        // Rectangles, sizes and colours, shared by layouts and pictures. Pure Swift.
        .target(name: "StageMixGeometry", swiftSettings: swiftSettings),
        // Milliseconds, 48 kHz samples and frames: the conversions between them and their one rounding rule. Pure Swift.
        .target(name: "StageMixTime", swiftSettings: swiftSettings),
        // A strict JSON parser and tree (duplicate keys, `true` vs `1`, line and column), for captures and layouts.
        .target(name: "StageMixJSON", swiftSettings: swiftSettings),
        // Layout model: regions, tiles, fit. Pure Swift.
        .target(name: "StageMixLayout", dependencies: ["StageMixGeometry", "StageMixJSON"], swiftSettings: swiftSettings),
        // Publishing output folders safely: staging, atomic exchange, markers, leftovers. Pure Swift over Glibc.
        .target(name: "StageMixPublishing", dependencies: ["StageMixStorage"], swiftSettings: swiftSettings),
        // The compose options, declared once for compose, enqueue and stored jobs. Pure Swift.
        .target(name: "StageMixOptions", dependencies: ["StageMixTime"], swiftSettings: swiftSettings),
        // Capture: the model of a recorded session and its validation (`stagemix.capture/1`). Pure Swift, no FFmpeg.
        .target(name: "StageMixCapture", dependencies: ["StageMixJSON", "StageMixStorage"], swiftSettings: swiftSettings),
        // Plan: stage timeline, edits, speakers, composition plan, billing; from a capture, a layout and options. Pure Swift.
        .target(name: "StageMixPlan", dependencies: ["StageMixCapture", "StageMixLayout", "StageMixJSON", "StageMixOptions", "StageMixTime"],
                swiftSettings: swiftSettings),
        // S3-compatible object storage: configuration found as the AWS CLI finds it, Signature Version 4, and the
        // S3 requests over AsyncHTTPClient.
        .target(name: "StageMixStorage", dependencies: [
            "StageMixTime",
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
        ], swiftSettings: swiftSettings),
        // Owner types over FFmpeg, libopus, libebur128 and FreeType objects; the only importer of the C modules.
        // Pixel loops in C, vectorised by the compiler, AVX2 picked at run time; only StageMixMedia calls them.
        .target(name: "CStageMixKernels", cSettings: [.unsafeFlags(["-O2"])]),
        .target(name: "StageMixMedia", dependencies: ["CFFmpeg", "COpus", "CEbur128", "CFreeType", "CHarfBuzz", "CFriBidi", "CStageMixKernels", "StageMixGeometry", "StageMixTime", "StageMixStorage"],
                swiftSettings: swiftSettings + mediaKernelSettings),
        // Capture generator: scenario -> real media files + session.json.
        .target(name: "StageMixSynth", dependencies: ["StageMixCapture", "StageMixPlan", "StageMixMedia", "StageMixTime"], swiftSettings: swiftSettings),
        // The lobby check of a capture (`stagemix probe`): every layer opened and decoded, silent microphones.
        .target(name: "StageMixProbe", dependencies: ["StageMixCapture", "StageMixMedia", "StageMixTime", "StageMixStorage"], swiftSettings: swiftSettings),
        // Plan -> decode, composite, mix, encode, HLS.
        .target(name: "StageMixPipeline", dependencies: ["StageMixCapture", "StageMixJSON", "StageMixPlan", "StageMixMedia", "StageMixPublishing", "StageMixOptions", "StageMixTime", "StageMixStorage", "StageMixReportPage"], swiftSettings: swiftSettings),
        // report.html: the session as a page, from the plan and the run's report. Pure Swift, no FFmpeg.
        .target(name: "StageMixReportPage", dependencies: ["StageMixPlan", "StageMixCapture"], swiftSettings: swiftSettings),
        // Other platforms' recordings (Twilio, LiveKit) imported as captures; reads media headers for layer sizes.
        .target(name: "StageMixImport", dependencies: ["StageMixCapture", "StageMixJSON", "StageMixMedia", "StageMixTime"], swiftSettings: swiftSettings),
        // Job queue (SQLite or PostgreSQL) and the worker that runs compose jobs as child processes.
        .target(name: "StageMixQueue", dependencies: [
            "StageMixPublishing", "StageMixOptions", "StageMixTime", "StageMixStorage",
            .product(name: "SQLiteNIO", package: "sqlite-nio"),
            .product(name: "PostgresNIO", package: "postgres-nio"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            .product(name: "NIOSSL", package: "swift-nio-ssl"),
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "Metrics", package: "swift-metrics"),
            .product(name: "Prometheus", package: "swift-prometheus"),
        ], swiftSettings: swiftSettings),
        // The HTTP API over the queue: auth, compositions, plans, the webhook outbox and its delivery.
        .target(name: "StageMixService", dependencies: [
            "StageMixReportPage",
            "StageMixQueue", "StageMixOptions", "StageMixCapture", "StageMixPlan", "StageMixLayout", "StageMixPipeline", "StageMixPublishing", "StageMixStorage", "StageMixTime", "StageMixJSON", "StageMixImport", "CZlib",
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "JWTKit", package: "jwt-kit"),
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
            .product(name: "Metrics", package: "swift-metrics"),
            .product(name: "Prometheus", package: "swift-prometheus"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        ], swiftSettings: swiftSettings),

        // What the two executables share: the option groups, exit codes and the plan's inputs.
        .target(name: "StageMixCommandLine", dependencies: [
            "StageMixCapture", "StageMixPlan", "StageMixLayout", "StageMixOptions", "StageMixPublishing", "StageMixStorage",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ], swiftSettings: swiftSettings),
        .executableTarget(name: "stagemix", dependencies: [
            "StageMixCapture", "StageMixPlan", "StageMixLayout", "StageMixMedia", "StageMixSynth", "StageMixProbe", "StageMixPipeline", "StageMixPublishing", "StageMixOptions",
            "StageMixCommandLine", "StageMixImport", "StageMixReportPage",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ], swiftSettings: swiftSettings),
        .executableTarget(name: "stagemix-service", dependencies: [
            "StageMixQueue", "StageMixService", "StageMixPublishing", "StageMixOptions", "StageMixCommandLine", "StageMixPlan", "StageMixCapture",
            .product(name: "JWTKit", package: "jwt-kit"),
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ], swiftSettings: swiftSettings),

        // What several test targets share: the Goertzel tone meter. Built only for tests.
        .target(name: "StageMixTestSupport", path: "Tests/StageMixTestSupport", swiftSettings: swiftSettings),
        // What the queue's and the service's tests share: a real PostgreSQL, worker processes, a fake compose,
        // temporary directories. Kept apart from StageMixTestSupport so that the media tests build no SwiftNIO or PostgreSQL.
        .target(name: "StageMixQueueTestSupport", dependencies: ["StageMixQueue"],
                path: "Tests/StageMixQueueTestSupport", swiftSettings: swiftSettings),
        .testTarget(name: "StageMixTimeTests", dependencies: ["StageMixTime"], swiftSettings: swiftSettings),
        .testTarget(name: "StageMixLayoutTests", dependencies: ["StageMixLayout"], swiftSettings: swiftSettings),
        .testTarget(name: "StageMixJSONTests", dependencies: ["StageMixJSON"], swiftSettings: swiftSettings),
        .testTarget(name: "StageMixOptionsTests", dependencies: ["StageMixOptions"], swiftSettings: swiftSettings),
        .testTarget(name: "StageMixStorageTests", dependencies: ["StageMixStorage", "StageMixTestSupport"], swiftSettings: swiftSettings),
        .testTarget(name: "StageMixCaptureTests", dependencies: ["StageMixCapture", "StageMixJSON", "StageMixPlan", "StageMixTestSupport"], swiftSettings: swiftSettings),
        .testTarget(name: "StageMixPlanTests", dependencies: ["StageMixPlan", "StageMixCapture", "StageMixLayout", "StageMixTestSupport"], swiftSettings: swiftSettings),
        .testTarget(name: "StageMixMediaTests", dependencies: ["StageMixMedia", "StageMixTestSupport"], swiftSettings: swiftSettings),
        .testTarget(name: "StageMixPublishingTests", dependencies: ["StageMixPublishing", "StageMixStorage", "StageMixTestSupport"], swiftSettings: swiftSettings),
        .testTarget(name: "StageMixQueueTests", dependencies: [
            "StageMixQueue", "StageMixPublishing", "StageMixOptions", "StageMixTime", "StageMixQueueTestSupport", "StageMixTestSupport",
        ], swiftSettings: swiftSettings),
        .testTarget(name: "StageMixServiceTests", dependencies: [
            "StageMixService", "StageMixQueue", "StageMixStorage", "StageMixQueueTestSupport", "StageMixTestSupport",
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "JWTKit", package: "jwt-kit"),
            .product(name: "Crypto", package: "swift-crypto"),
        ], swiftSettings: swiftSettings),
        .testTarget(name: "StageMixPipelineTests", dependencies: ["StageMixPipeline", "StageMixOptions", "StageMixSynth", "StageMixProbe", "StageMixCapture", "StageMixPlan", "StageMixLayout", "StageMixMedia", "StageMixStorage", "StageMixImport", "StageMixTestSupport"], swiftSettings: swiftSettings),
        .testTarget(name: "StageMixReportPageTests", dependencies: ["StageMixReportPage", "StageMixPlan", "StageMixCapture", "StageMixLayout", "StageMixTestSupport"],
                    swiftSettings: swiftSettings),
        .testTarget(name: "StageMixSynthTests", dependencies: ["StageMixSynth", "StageMixProbe", "StageMixCapture", "StageMixPlan", "StageMixMedia", "StageMixTestSupport"], swiftSettings: swiftSettings),

        // Fuzz targets (docs/fuzzing.md): libFuzzer under `scripts/fuzz`'s -sanitize=fuzzer build, file replay otherwise.
        .target(name: "CLibFuzzer", path: "Fuzz/CLibFuzzer"),
        .executableTarget(name: "FuzzCapture", dependencies: ["CLibFuzzer", "StageMixCapture", "StageMixPlan", "StageMixLayout"],
                          path: "Fuzz/FuzzCapture", swiftSettings: swiftSettings),
        .executableTarget(name: "FuzzMedia", dependencies: ["CLibFuzzer", "StageMixMedia"],
                          path: "Fuzz/FuzzMedia", swiftSettings: swiftSettings),
    ]
)
