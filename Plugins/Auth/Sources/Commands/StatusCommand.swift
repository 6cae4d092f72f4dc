import ArgumentParser
import Foundation
import SyncKernel
import SyncKernelCLI

/// `ferry auth status`: who, until when, and whether the remote confirmed it.
struct StatusCommand: RuntimeCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show the session: who, token expiry, online or offline, last verified.",
        discussion: Examples.discussion(examples: ["ferry auth status", "ferry auth status --json"])
    )

    @OptionGroup var global: GlobalOptions

    func run(in runtime: FerryRuntime) async throws {
        let auth = try runtime.plugin(AuthPlugin.self)
        let verification = await auth.verify(connectivity: await runtime.connectivity.current())
        let session = try await auth.status()
        let now = runtime.clock.now()
        if global.json {
            struct Report: Encodable {
                let signedIn: Bool
                let verification: String
                let session: SessionView?
            }
            return try global.output.printJSON(
                Report(
                    signedIn: session?.isActive == true,
                    verification: verification.word,
                    session: session.map { SessionView($0, now: now) }
                )
            )
        }
        guard let session else { return print("nobody is signed in; run `ferry auth login`") }
        let view = SessionView(session, now: now)
        print("user:        \(view.username)\(view.displayName.map { " (\($0))" } ?? "")")
        print("state:       \(verification.sentence(session: view, now: now))")
        if let expiry = session.accessExpiresAt { print("token:       expires \(Output.relative(expiry, now: now))") }
        if let member = session.actingAs { print("acting as:   \(member)") }
        if case .ended = verification { throw CommandFailure(.needsLogin) }
    }
}

extension AuthPlugin.Verification {
    var word: String {
        switch self {
        case .verified: "verified"
        case .offline: "offline"
        case .unavailable: "unavailable"
        case .ended: "ended"
        case .signedOut: "signed_out"
        }
    }

    func sentence(session: SessionView, now: Date) -> String {
        let last = session.verifiedAt.map { "last verified \(Output.relative($0, now: now))" } ?? "never verified"
        switch self {
        case .verified: return "online, verified just now"
        case .offline(let reason): return "offline (\(reason)), \(last); the session is kept"
        case .unavailable(let reason):
            return "not verified: the server answered with an error (\(reason)), \(last); the session is kept"
        case .ended(let reason): return "the server ended the session (\(reason)); run `ferry auth login`"
        case .signedOut: return "signed out; run `ferry auth login`"
        }
    }
}
