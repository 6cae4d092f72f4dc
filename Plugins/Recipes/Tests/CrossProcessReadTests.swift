import Foundation
import RecipesPlugin
import SyncKernel
import SyncKernelTesting
import Testing

/// The list read through the memory tier, while `ferry` commands in other processes
/// change the same store.
@Suite("Recipes: reads see other processes' writes", .timeLimit(.minutes(3)))
struct CrossProcessReadTests {
    /// An offline runtime on a store in a new folder, and `ferry` on the same config.
    struct Setup {
        let folder: URL
        let ferry: FerryExecutable
        let runtime: FerryRuntime

        init() async throws {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("recipes-xproc-\(UUID())")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let config = folder.appendingPathComponent("config.yaml")
            try """
            data_dir: data
            server: http://127.0.0.1:9
            log_level: error
            network: {mode: offline}
            plugins:
              recipes: {}
            """.write(to: config, atomically: true, encoding: .utf8)
            ferry = try FerryExecutable(in: folder)
            runtime = try await FerryRuntime.open(
                configuration: try FerryConfiguration.load(path: config.path),
                pluginTypes: [RecipesPlugin.self]
            )
        }

        /// Writes a recipe document named `id` in the folder and returns its path.
        func document(_ id: String) throws -> String {
            let file = folder.appendingPathComponent("\(id).json")
            try Data(#"{"id": "\#(id)", "title": "\#(id.capitalized)"}"#.utf8).write(to: file)
            return file.path
        }

        /// The listed recipes, saved ones marked with a star.
        func listed() async throws -> [String] {
            let listing = try await RecipeBook(runtime: runtime).read(policy: .cacheOnly)
            return listing?.value.recipes.map { $0.saved ? "\($0.id)*" : $0.id } ?? []
        }

        func close() async {
            await runtime.shutdown()
            try? FileManager.default.removeItem(at: folder)
        }
    }

    @Test(.enabled(if: FerryExecutable.isBuilt, "needs the ferry executable: run `swift build` first"))
    func aCachedListIsNeverOlderThanTheStore() async throws {
        let setup = try await Setup()
        defer { Task { await setup.close() } }
        _ = try await RecipeBook(runtime: setup.runtime).add(documentAt: try setup.document("soup"))
        let first = try await setup.listed()
        #expect(first == ["soup*"])
        let again = try await setup.listed()
        #expect(again == ["soup*"])
        #expect(setup.runtime.readCache.statistics.hits >= 1, "the second read is answered from memory")

        let added = try await setup.ferry.run(["recipes", "add", try setup.document("stew")])
        try #require(added.status == 0, "ferry recipes add failed: \(added.error)")
        let afterAdd = try await setup.listed()
        #expect(afterAdd == ["soup*", "stew*"], "the other process's recipe is seen at once")
        let unsaved = try await setup.ferry.run(["recipes", "unsave", "soup"])
        try #require(unsaved.status == 0, "ferry recipes unsave failed: \(unsaved.error)")
        let afterUnsave = try await setup.listed()
        #expect(afterUnsave == ["soup", "stew*"])
    }

    @Test(.enabled(if: FerryExecutable.isBuilt, "needs the ferry executable: run `swift build` first"))
    func aWatchedListRedrawsWhenAnotherProcessWrites() async throws {
        let setup = try await Setup()
        defer { Task { await setup.close() } }
        _ = try await RecipeBook(runtime: setup.runtime).add(documentAt: try setup.document("soup"))
        var answers = try RecipeBook(runtime: setup.runtime).watch(policy: .cacheOnly).makeAsyncIterator()
        #expect(try await answers.next()?.value.recipes.map(\.id) == ["soup"])
        let added = try await setup.ferry.run(["recipes", "add", try setup.document("stew")])
        try #require(added.status == 0, "ferry recipes add failed: \(added.error)")
        #expect(try await answers.next()?.value.recipes.map(\.id) == ["soup", "stew"])
    }

    @Test(.enabled(if: FerryExecutable.isBuilt, "needs the ferry executable: run `swift build` first"))
    func listWatchPrintsTheListAgainWhenAnotherCommandChangesIt() async throws {
        let setup = try await Setup()
        defer { Task { await setup.close() } }
        let watcher = try setup.ferry.start(["recipes", "list", "--watch", "--json"])
        defer { watcher.process.terminate() }
        let lines = LineReader(watcher.stdout)
        let first = try #require(await lines.next())
        #expect(first.contains(#""recipes":[]"#), "an empty cache is watched as an empty list: \(first)")
        let added = try await setup.ferry.run(["recipes", "add", try setup.document("stew")])
        try #require(added.status == 0, "ferry recipes add failed: \(added.error)")
        let second = try #require(await lines.next())
        #expect(second.contains(#""id":"stew""#), "one JSON object per change: \(second)")
    }
}

/// Reads lines from a process's output on a thread of its own.
final class LineReader: @unchecked Sendable {
    private let handle: FileHandle
    private var buffer = Data()

    init(_ pipe: Pipe) { handle = pipe.fileHandleForReading }

    /// The next line, or nil when the output ended.
    func next() async -> String? {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread { [self] in
                while true {
                    if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                        let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                        buffer = Data(buffer[(newline + 1)...])
                        return continuation.resume(returning: line)
                    }
                    let chunk = handle.availableData
                    if chunk.isEmpty { return continuation.resume(returning: nil) }
                    buffer += chunk
                }
            }
        }
    }
}
