import ArgumentParser
import Foundation
import SyncKernel
import SyncKernelCLI

/// `ferry auth login`.
struct LoginCommand: RuntimeCommand {
    static let configuration = CommandConfiguration(
        commandName: "login",
        abstract: "Sign in; queued work waiting for a login resumes.",
        discussion:
            "The password is asked for without echo, or read from standard input with --password-stdin, or from $FERRY_PASSWORD."
    )

    @OptionGroup var global: GlobalOptions
    @Option(help: "The username (asked for when left out).") var username: String?
    @Flag(help: "Read the password from the first line of standard input.") var passwordStdin = false
    @Flag(help: "Keep work queued by another account for that account (it waits for its login).") var keepQueued = false
    @Flag(help: "Discard work queued by another account.") var discardQueued = false

    func run(in runtime: FerryRuntime) async throws {
        let auth = try runtime.plugin(AuthPlugin.self)
        guard let name = username ?? Prompt.ask("username: "), !name.isEmpty else {
            throw FerryError(.usage, "give a username with --username")
        }
        let password = try readPassword()
        let session = try await auth.login(username: name, password: password)
        try await settleOtherAccounts(runtime: runtime, account: session.user.id)
        try await runtime.resumeAfterLogin()
        if global.json {
            try Output(json: true).printJSON(SessionView(session, now: runtime.clock.now()))
        } else {
            print("signed in as \(session.user.username)\(session.user.displayName.map { " (\($0))" } ?? "")")
        }
    }

    private func readPassword() throws -> String {
        if passwordStdin {
            guard let line = readLine(strippingNewline: true), !line.isEmpty else {
                throw FerryError(.usage, "--password-stdin read no password from standard input")
            }
            return line
        }
        if let fromEnvironment = ProcessInfo.processInfo.environment["FERRY_PASSWORD"], !fromEnvironment.isEmpty {
            return fromEnvironment
        }
        guard let typed = Prompt.askSecret("password: "), !typed.isEmpty else {
            throw FerryError(
                .usage,
                "no password given; type it at the prompt, pipe it with --password-stdin, or set FERRY_PASSWORD"
            )
        }
        return typed
    }

    /// Work queued by another account is never sent under this one: keep it for its owner or discard it.
    private func settleOtherAccounts(runtime: FerryRuntime, account: String) async throws {
        let others = try await runtime.queuedForOtherAccounts(than: account)
        guard !others.isEmpty else { return }
        let description = others.sorted { $0.key < $1.key }.map { "\($0.value) for \($0.key)" }.joined(separator: ", ")
        var discard = discardQueued
        if !keepQueued && !discardQueued {
            guard Prompt.isInteractive else {
                throw FerryError(
                    .usage,
                    "signed in, but work is queued for another account (\(description)); run login again with --keep-queued (it waits for that account) or --discard-queued"
                )
            }
            discard = Prompt.confirm(
                "Work is queued for another account (\(description)). Discard it? (no keeps it for that account)",
                assumeYes: false
            )
        }
        if discard {
            var dropped = 0
            for other in others.keys { dropped += try await runtime.discardQueued(forAccount: other) }
            print("discarded \(dropped) operation(s) queued for another account")
        } else {
            print("kept \(others.values.reduce(0, +)) operation(s) for their account; they wait until it signs in")
        }
    }
}
