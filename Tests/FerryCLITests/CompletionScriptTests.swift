import Foundation
import Testing

/// `ferry --generate-completion-script`: the shell offers the values of enumerated options
/// and completes file and folder names where one is taken.
@Suite("ferry completion script", .enabled(if: FerryProcess.executable != nil, "needs the ferry executable (swift build)"))
struct CompletionScriptTests {
    @Test func theBashScriptOffersEnumeratedValuesAndFiles() async throws {
        let ferry = try FerryProcess.make(config: "")
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
}
