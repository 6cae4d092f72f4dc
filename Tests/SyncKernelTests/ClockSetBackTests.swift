import FerryServerTesting
import Foundation
import SyncKernelTesting
import Testing

@testable import SyncKernel

/// A device's clock set back (by a person, or by a correction after it ran ahead) must not
/// hold its queue until the clock comes round again.
@Suite("A clock set back holds nothing")
struct ClockSetBackTests {
    @Test func aWriteMadeBeforeTheClockWasSetBackGoesAtOnce() async throws {
        try await TestPluginServer.with { server, url in
            let test = try await TestRuntime.make(server: url)
            _ = try await TestPlugin.put("a", "1", in: test.runtime)
            test.clock.advance(by: -7200)
            #expect(try await test.runOnce().sent == 1)
            #expect(server.item("a")?.value == "1")
        }
    }

    @Test func aBackoffKeepsItsLengthWhenTheClockIsSetBack() async throws {
        try await TestPluginServer.with { server, url in
            let test = try await TestRuntime.make(server: url)
            _ = try await TestPlugin.put("a", "1", in: test.runtime)
            server.fail(.init(status: 503, body: "{}"))
            #expect(try await test.runOnce().retried == 1)
            let wait = try #require(try await test.operations().first).nextAttemptAt.timeIntervalSince(test.clock.now())
            #expect(wait > 0 && wait <= 300)
            test.clock.advance(by: -7200)
            #expect(try await test.runOnce().sent == 0, "the backoff still runs")
            test.clock.advance(by: wait + 1)
            #expect(try await test.runOnce().sent == 1, "and ends as long after the clock went back as it was")
        }
    }

    @Test func aDeadlineFurtherAheadThanItWasSetHasCome() {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        var deadline = Deadline()
        #expect(deadline.hasCome(at: now))
        deadline.restart(from: now, after: 60)
        #expect(!deadline.hasCome(at: now.addingTimeInterval(59)))
        #expect(deadline.hasCome(at: now.addingTimeInterval(60)))
        #expect(deadline.hasCome(at: now.addingTimeInterval(-3600)), "set back further than the wait")
    }
}
