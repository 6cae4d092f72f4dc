import ArgumentParser
import Foundation
import SyncKernel
import SyncKernelCLI

/// `ferry audio downloads [--watch]`: the four sections of the downloads screen.
struct DownloadsCommand: RuntimeCommand {
    static let configuration = CommandConfiguration(
        commandName: "downloads",
        abstract: "Show downloads in progress, downloaded albums and collections, and stream-cached tracks.",
        discussion: Examples.discussion(examples: [
            "ferry audio downloads", "ferry audio downloads --watch   (while `ferry run` works)", "ferry audio downloads --json",
        ])
    )

    @OptionGroup var global: GlobalOptions
    @Flag(help: "Redraw every second until interrupted (on a terminal only).") var watch = false

    func run(in runtime: FerryRuntime) async throws {
        let audio = try AudioLibrary(runtime: runtime)
        if global.json { return try Output(json: true).printJSON(try await audio.downloads()) }
        guard watch, Output.allowsEscapes() else { return print(Self.render(try await audio.downloads()), terminator: "") }
        while !Task.isCancelled {
            let screen = Self.render(try await audio.downloads())
            print("\u{1B}[H\u{1B}[2J" + screen, terminator: "")
            try await Task.sleep(for: .seconds(1))
        }
    }

    static func render(_ view: DownloadsView) -> String {
        let progress = view.inProgress.isEmpty ? "" : " (\(percent(view.received, view.total)) of \(ByteCount(view.total)))"
        return [
            section(
                "In progress" + progress,
                ["TRACK", "FILE", "PROGRESS", "STATE"],
                view.inProgress.map {
                    [$0.title, $0.file, "\(ByteCount($0.received)) / \(ByteCount($0.total)) (\(percent($0.received, $0.total)))", $0.state]
                }
            ),
            section(
                "Downloaded albums",
                ["ID", "TITLE", "TRACKS", "SIZE", "KEPT"],
                view.albums.map { ["\($0.id)", $0.title, "\($0.downloaded)/\($0.tracks)", "\(ByteCount($0.bytes))", kept($0)] }
            ),
            section(
                "Downloaded collections",
                ["ID", "NAME", "ALBUMS"],
                view.collections.map { [$0.id, $0.name, "\($0.albums.count)"] }
            ),
            section(
                "Stream-cached",
                ["TRACK", "FILE", "SIZE", "LAST PLAYED"],
                view.cached.map {
                    [$0.title, $0.file, "\(ByteCount($0.bytes))", $0.lastPlayed.map { ISO8601DateFormatter().string(from: $0) } ?? "never"]
                }
            ),
            "\(ByteCount(view.usedBytes)) of \(ByteCount(view.maxBytes)) used (plugins.audio.max_size)\n",
        ].joined(separator: "\n")
    }

    /// A titled table, or the title and "none".
    static func section(_ title: String, _ header: [String], _ rows: [[String]]) -> String {
        rows.isEmpty ? "\(title): none\n" : "\(title)\n" + Output.render(header, rows)
    }

    /// Why an album is kept: explicitly, through collections, or both.
    static func kept(_ album: AlbumView) -> String {
        ((album.explicit ? ["explicit"] : []) + (album.collections.isEmpty ? [] : ["via " + album.collections.joined(separator: ", ")]))
            .joined(separator: ", ")
    }

    static func percent(_ part: Int64, _ whole: Int64) -> String {
        whole > 0 ? "\(Int((Double(part) / Double(whole) * 100).rounded(.down)))%" : "0%"
    }
}
