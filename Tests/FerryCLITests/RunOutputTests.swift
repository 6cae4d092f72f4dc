import Foundation
import SyncKernel
import SyncKernelCLI
import SyncKernelTesting
import Testing

@testable import FerryCLI

/// What a running `ferry run` prints: by default a summary line every 10 s (of the
/// runtime's clock) in which something happened, sentences for what a person acts on, and
/// a line per operation only with --verbose.
@Suite("ferry run output")
struct RunOutputTests {
    static let sent = SyncEvent.sent(plugin: "recipes", kind: "save", entity: "demo-dal", operation: UUID())
    static let retrying = SyncEvent.retrying(
        plugin: "recipes", kind: "save", operation: UUID(), attempts: 1, at: Date(), reason: "503 unavailable")

    struct Printer {
        let bus = EventBus()
        let clock = TestClock()
        let lines = WrittenLines()
        let printer: EventPrinter
        let running: Task<Void, any Error>

        init(style: EventPrinter.Style) {
            var printer = EventPrinter(
                events: bus.subscribe(),
                style: style,
                clock: clock,
                backlog: { RunDigest.Backlog(retrying: 3, dead: 0, queued: 1_215) },
                banner: "ferry: syncing recipes"
            )
            let lines = lines
            printer.write = { lines.append($0) }
            self.printer = printer
            running = Task { [printer] in try await printer.run() }
        }

        func finish() async throws {
            bus.finish()
            try await running.value
        }
    }

    @Test func byDefaultOperationsGoIntoASummaryEveryTenSecondsOfTheClock() async throws {
        let test = Printer(style: .digest)
        try await eventually("the summary timer") { test.clock.sleeperCount == 1 }
        for _ in 0..<120 { test.bus.emit(Self.sent) }
        test.bus.emit(Self.retrying)
        try await eventually("the events counted") { test.printer.counted == 121 }
        #expect(test.lines.all.isEmpty, "no line per operation: \(test.lines.all)")

        test.clock.advance(by: 9.9)
        #expect(test.lines.all.isEmpty)
        test.clock.advance(by: 0.1)
        try await eventually("the summary line") { !test.lines.all.isEmpty }
        #expect(test.lines.all == ["sent 120, 3 retrying, 0 dead, queue 1,215"])

        // An interval in which nothing happened prints nothing.
        try await eventually("the next interval") { test.clock.sleeperCount == 1 }
        test.clock.advance(by: 10)
        try await eventually("the interval after") { test.clock.sleeperCount == 1 }
        #expect(test.lines.all.count == 1)
        try await test.finish()
    }

    @Test func whatAPersonActsOnIsSaidAtOnceAsASentence() async throws {
        let test = Printer(style: .digest)
        test.bus.emit(.needsLogin(plugin: "recipes", reason: "401"))
        try await eventually("the sentence") { !test.lines.all.isEmpty }
        #expect(test.lines.all == ["recipes needs a login: run `ferry auth login`"])
        try await test.finish()
    }

    @Test func aFailedPullIsSaidAtOnceByTheRunnerNotByALogLine() async throws {
        let test = Printer(style: .digest)
        test.bus.emit(.pullFailed(plugin: "recipes", reason: "500 internal: boom"))
        try await eventually("the sentence") { !test.lines.all.isEmpty }
        #expect(test.lines.all == ["recipes: pull failed: 500 internal: boom"])
        try await test.finish()
    }

    @Test func verboseKeepsALinePerOperation() async throws {
        let test = Printer(style: .everyEvent)
        test.bus.emit(Self.sent)
        test.bus.emit(Self.sent)
        try await eventually("two lines") { test.lines.all.count == 2 }
        #expect(test.lines.all.allSatisfy { $0.hasPrefix("sent      recipes save demo-dal") })
        try await test.finish()
    }

    @Test func theSummaryCountsWithThousandsSeparators() {
        var digest = RunDigest(start: Date(timeIntervalSince1970: 0))
        for _ in 0..<1_200 { digest.record(Self.sent) }
        #expect(digest.report(at: Date(timeIntervalSince1970: 5), backlog: nil) == nil, "not before 10 s")
        #expect(
            digest.report(at: Date(timeIntervalSince1970: 10), backlog: .init(retrying: 0, dead: 2, queued: 6_000))
                == "sent 1,200, 0 retrying, 2 dead, queue 6,000"
        )
    }

    @Test func downloadsAreCountedInFilesAndBytes() {
        var digest = RunDigest(start: Date(timeIntervalSince1970: 0))
        digest.record(Self.sent)
        digest.record(.transferProgress(name: "a", received: 500, total: 1_500))
        digest.record(.transferred(name: "a", bytes: 1_500))
        digest.record(.transferred(name: "b", bytes: 264_600))
        #expect(
            digest.report(at: Date(timeIntervalSince1970: 10), backlog: nil)
                == "sent 1, 0 retrying, 0 dead, downloaded 2 files (266.1 kB)"
        )

        var line = SendProgress.Counter(total: 9)
        let counted = [Self.sent, .transferProgress(name: "a", received: 10, total: 20)].map { line.record($0) }
        #expect(counted == [true, false] && line.text == "sent 1 of 9", "no download, no download count")
        let finished = line.record(.transferred(name: "a", bytes: 1_200_000))
        #expect(finished && line.text == "sent 1 of 9, downloaded 1 file (1.2 MB)")
    }

    @Test func warningsArePlainSentencesUnlessDebugging() {
        #expect(PlainLogHandler.line(level: .warning, message: "recipes: pull failed: 503") == "warning: recipes: pull failed: 503\n")
        #expect(PlainLogHandler.handler(label: "ferry", level: .warning) is PlainLogHandler)
        #expect(!(PlainLogHandler.handler(label: "ferry", level: .info) is PlainLogHandler))
        #expect(!(PlainLogHandler.handler(label: "ferry", level: .debug) is PlainLogHandler))
    }
}
