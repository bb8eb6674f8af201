import Foundation
import StageMixQueueTestSupport
import Testing

/// The request metrics at `/metrics` count each answer with the status actually sent.
@Suite("Service metrics")
struct ServiceMetricsTests {
    @Test func clientErrorsAreCountedWithTheirOwnStatus() async throws {
        let service = try await ServiceFixture(backend: .sqlite, workers: 0)
        defer { Task { await service.stop() } }
        let token = try await ServiceFixture.token()
        #expect(try await service.request("GET", "/v1/compositions", token: nil).status == 401)
        #expect(try await service.request("GET", "/v1/compositions/nope", token: token).status == 404)
        #expect(try await service.request("GET", "/nowhere", token: token).status == 404)
        #expect(try await service.request("POST", "/v1/compositions", token: token, body: #"{"layout": "grid"}"#).status == 422)
        #expect(try await service.request("DELETE", "/v1/plans", token: token).status == 405)

        let metrics = try await service.request("GET", "/metrics", token: nil).body
        let requests = metrics.split(separator: "\n").filter { $0.hasPrefix("hb_requests{") }
        func counted(_ status: Int) -> Bool { requests.contains { $0.contains(#"http_response_status_code="\#(status)""#) } }
        for status in [401, 404, 422, 405] {
            #expect(counted(status), "no hb_requests with status \(status):\n\(requests.joined(separator: "\n"))")
        }
        #expect(!counted(500), "client errors counted as 500:\n\(requests.joined(separator: "\n"))")
    }
}
