import ArgumentParser
import Foundation
import SyncKernel
import SyncKernelCLI

/// `ferry auth login`.
struct LoginCommand: RuntimeCommand {
    static let configuration = CommandConfiguration(
        commandName: "login",
        abstract: "Sign in; queued work waiting for a login resumes.",
        discussion: Examples.discussion(
            "The password is asked for without echo, or read from standard input with --password-stdin, or from $FERRY_PASSWORD.",
            examples: ["ferry auth login --username demo", "ferry auth login --username demo --password-stdin < password.txt"]
        )
    )

    @OptionGroup var global: GlobalOptions
    @Option(help: ArgumentHelp("The username (asked for when left out).", valueName: "username")) var username: String?
    @Flag(help: "Read the password from the first line of standard input.") var passwordStdin = false
    @Flag(
        help:
            "Keep work queued by another account for that account (it waits for its login), and work made while nobody was signed in for this one."
    ) var keepQueued = false
    @Flag(help: "Discard work queued by another account or while nobody was signed in.") var discardQueued = false

    func validate() throws {
        if keepQueued && discardQueued { throw ValidationError("give --keep-queued or --discard-queued, not both") }
    }

    func run(in runtime: FerryRuntime) async throws {
        let auth = try runtime.plugin(AuthPlugin.self)
        guard let name = username ?? Prompt.ask("username: "), !name.isEmpty else {
            throw FerryError(.usage, "give a username with --username")
        }
        let password = try readPassword()
        let session = try await auth.login(username: name, password: password)
        try await settleOtherAccounts(runtime: runtime, account: session.user.id)
        try await settleSignedOutWork(runtime: runtime, account: session.user.id, username: session.user.username)
        if try await runtime.adoptLocalData(for: session.user.id) {
            global.output.say("the local data of the previous account was removed; the next sync fetches \(session.user.username)'s")
        }
        try await runtime.resumeAfterLogin()
        if global.json {
            try global.output.printJSON(SessionView(session, now: runtime.clock.now()))
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
        if let fromEnvironment = ProcessEnvironment.value("FERRY_PASSWORD"), !fromEnvironment.isEmpty {
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

    /// Work made while nobody was signed in is never sent silently as this account's: it is
    /// kept for it (and sent) or discarded, as the person says; undecided, it stays held.
    private func settleSignedOutWork(runtime: FerryRuntime, account: String, username: String) async throws {
        let count = try await runtime.queuedWhileSignedOut()
        guard count > 0 else { return }
        let question =
            "\(count) change(s) were made on this device while nobody was signed in. Keep them as \(username)'s and send them? (no discards them; Enter holds them)"
        switch keepOrDiscard(question, byDefault: nil) {
        case true?:
            let adopted = try await runtime.adoptSignedOutWork(for: account)
            global.output.say("kept \(adopted) change(s) made while signed out; they are sent as \(username)'s")
        case false?:
            let dropped = try await runtime.discardQueued(forAccount: nil)
            global.output.say("discarded \(dropped) change(s) made while signed out")
        case nil:
            Output.warn(
                "\(count) change(s) made while nobody was signed in are held, not sent as \(username)'s; run `ferry auth login --keep-queued` to send them as \(username)'s, or `--discard-queued`"
            )
        }
    }

    /// Work queued by another account is never sent under this one: it is kept for its
    /// owner (the default, when nobody says) or discarded.
    private func settleOtherAccounts(runtime: FerryRuntime, account: String) async throws {
        let others = try await runtime.queuedForOtherAccounts(than: account)
        guard !others.isEmpty else { return }
        let description = others.sorted { $0.key < $1.key }.map { "\($0.value) for \($0.key)" }.joined(separator: ", ")
        let question = "Work is queued for another account (\(description)). Keep it for that account? (no discards it)"
        if keepOrDiscard(question, byDefault: true) == false {
            var dropped = 0
            for other in others.keys { dropped += try await runtime.discardQueued(forAccount: other) }
            global.output.say("discarded \(dropped) operation(s) queued for another account")
        } else {
            global.output.say("kept \(others.values.reduce(0, +)) operation(s) for their account; they wait until it signs in")
        }
    }

    /// Keep (true) or discard (false), from the flags or else the person at the terminal,
    /// whose plain Enter means `byDefault` (never discarding); nil when nobody says.
    private func keepOrDiscard(_ question: String, byDefault: Bool?) -> Bool? {
        if keepQueued || discardQueued { return keepQueued }
        return Prompt.decide(question, byDefault: byDefault)
    }
}
