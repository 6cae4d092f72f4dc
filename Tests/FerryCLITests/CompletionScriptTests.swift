import Foundation
import SyncKernelTesting
import Testing

/// `ferry --generate-completion-script`: the shell offers the values of enumerated options
/// and completes file and folder names where one is taken.
@Suite("ferry completion script", .enabled(if: FerryExecutable.isBuilt, "needs the ferry executable (swift build)"))
struct CompletionScriptTests {
    @Test func theBashScriptOffersEnumeratedValuesAndFiles() async throws {
        let ferry = try FerryExecutable.configured("")
        let result = try await ferry.run(["--generate-completion-script", "bash"])
        #expect(result.status == 0, "\(result.error)")
        let script = result.output
        for value in ["want_to_watch", "cache_only", "network_only", "in_flight", "unmetered", "remote", "collection"] {
            #expect(script.contains(value), "the bash script does not offer \(value)")
        }
        #expect(script.contains("-o plusdirs -fX '!*.@(png|jpg|jpeg|gif|webp|heic)'"), "no photo file completion")
        #expect(script.contains("-fX '!*.@(json)'"), "no recipe file completion")
        #expect(script.contains(" -f\n"), "no file completion for --config")
        #expect(script.contains(" -d\n"), "no folder completion for --data or import-legacy")
    }

    @Test func optionValuesAreOfferedAfterAGlobalOptionBeforeTheSubcommand() async throws {
        let offered = try await complete("ferry --config config.yaml movies list --status ")
        #expect(offered == ["want_to_watch", "watching", "watched"], "\(offered)")
        #expect(try await complete("ferry --json qu") == ["queue"])
    }

    @Test func helpOffersTheTopicsAndTheCommands() async throws {
        let offered = try await complete("ferry help ")
        for word in ["exit-codes", "environment", "queue", "movies"] {
            #expect(offered.contains(word), "\(offered)")
        }
        #expect(try await complete("ferry help queue ") == ["list", "show", "retry", "discard"])
    }

    /// What bash offers for `line` (completing its last word) with ferry's bash script.
    func complete(_ line: String) async throws -> [String] {
        let ferry = try FerryExecutable.configured("")
        let generated = try await ferry.run(["--generate-completion-script", "bash"])
        try #require(generated.status == 0, "\(generated.error)")
        let script = ferry.folder.appendingPathComponent("ferry.bash")
        try generated.output.write(to: script, atomically: true, encoding: .utf8)
        let harness = """
            source "$1"
            read -ra COMP_WORDS <<< "$2"
            [[ "$2" == *" " ]] && COMP_WORDS+=("")
            COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
            COMP_LINE="$2"
            COMP_POINT=${#2}
            _ferry ferry "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        let bash = FerryExecutable(url: URL(fileURLWithPath: "/bin/bash"), folder: ferry.folder)
        let printed = try await bash.run(["-c", harness, "complete", script.path, line]).output
        return printed.split(separator: "\n").map(String.init)
    }
}
