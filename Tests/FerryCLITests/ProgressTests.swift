import Foundation
import SyncKernelTesting
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Long work shows its progress on standard error when a person watches a terminal, as a
/// line redrawn with \r, and nothing at all when standard error is piped.
@Suite("progress on standard error", .enabled(if: FerryExecutable.isBuilt, "needs the ferry executable (swift build)"))
struct ProgressTests {
    static let offlineConfig = "server: http://127.0.0.1:9\nplugins:\n  recipes: {}\n"

    /// A folder with three recipes added, each an upload and a save: six operations queued
    /// to send (the server is unreachable: they stay).
    func threeQueued() async throws -> FerryExecutable {
        let ferry = try FerryExecutable.configured(Self.offlineConfig)
        for name in ["soup", "stew", "salad"] {
            let recipe = ferry.folder.appendingPathComponent("\(name).json")
            try Data(#"{"title": "\#(name)"}"#.utf8).write(to: recipe)
            try #require(try await ferry.run(["recipes", "add", recipe.path]).status == 0)
        }
        return ferry
    }

    /// A legacy layout of two saved recipes.
    func legacyFolder(in ferry: FerryExecutable) throws -> String {
        let folder = ferry.folder.appendingPathComponent("legacy")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("recipes"), withIntermediateDirectories: true)
        try Data(#"["old-soup", "old-stew"]"#.utf8).write(to: folder.appendingPathComponent("saved_recipe_ids.json"))
        for id in ["old-soup", "old-stew"] {
            try Data(#"{"id": "\#(id)", "title": "\#(id)"}"#.utf8)
                .write(to: folder.appendingPathComponent("recipes/\(id).json"))
        }
        return folder.path
    }

    @Test func pipedThereIsNoProgress() async throws {
        let ferry = try await threeQueued()
        let run = try await ferry.run(["run", "--once"])
        #expect(run.status == 75)
        #expect(!run.error.contains("\r") && !run.error.contains(" of 6"), "\(run.error.debugDescription)")
        let legacy = try await ferry.run(["recipes", "import-legacy", try legacyFolder(in: ferry)])
        #expect(legacy.status == 0, "\(legacy.error)")
        #expect(!legacy.error.contains("\r") && !legacy.error.contains("imported 2 of 2"), "\(legacy.error.debugDescription)")
    }

    @Test func onATerminalRunOnceRedrawsHowManyWereSent() async throws {
        let ferry = try await threeQueued()
        let (status, terminal) = try await runOnTerminal(ferry, ["run", "--once"])
        #expect(status == 75)
        #expect(terminal.contains("\r\u{1B}[2Ksent 0 of 6"), "\(terminal.debugDescription)")
    }

    @Test func onATerminalImportLegacyRedrawsHowManyWereImported() async throws {
        let ferry = try FerryExecutable.configured(Self.offlineConfig)
        let (status, terminal) = try await runOnTerminal(ferry, ["recipes", "import-legacy", try legacyFolder(in: ferry)])
        #expect(status == 0, "\(terminal)")
        #expect(terminal.contains("\r\u{1B}[2Kimported 2 of 2"), "\(terminal.debugDescription)")
    }

    @Test func onATerminalACommandThatDownloadsNothingWritesNoEscapeSequence() async throws {
        let ferry = try FerryExecutable.configured(Self.offlineConfig)
        for command in [["config", "check"], ["queue", "list"], ["status"]] {
            let (status, terminal) = try await runOnTerminal(ferry, command)
            #expect(status == 0, "\(command): \(terminal)")
            #expect(!terminal.contains("\u{1B}"), "\(command): \(terminal.debugDescription)")
        }
    }

    /// Runs ferry with standard error on a terminal (standard output piped) and returns its
    /// exit status and what it wrote to the terminal.
    func runOnTerminal(_ ferry: FerryExecutable, _ arguments: [String]) async throws -> (Int32, String) {
        let tty = try PseudoTerminal()
        let running = try ferry.start(
            arguments,
            environment: ["NO_COLOR": nil, "TERM": "xterm"],
            standardInput: .discarded,
            standardError: .handle(tty.handle)
        )
        let written = await onOwnThread {
            var written = Data()
            var buffer = [UInt8](repeating: 0, count: 4096)
            _ = fcntl(tty.controller, F_SETFL, fcntl(tty.controller, F_GETFL) | O_NONBLOCK)
            func drain() {
                while true {
                    let count = read(tty.controller, &buffer, buffer.count)
                    guard count > 0 else { return }
                    written.append(contentsOf: buffer[0..<count])
                }
            }
            while running.process.isRunning {
                drain()
                usleep(5_000)
            }
            running.process.waitUntilExit()
            drain()
            return written
        }
        return (running.process.terminationStatus, String(decoding: written, as: UTF8.self))
    }
}
