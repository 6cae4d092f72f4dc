import ArgumentParser
import SyncKernel
import SyncKernelCLI

/// `ferry auth`: sign in and out, and see who is signed in.
struct AuthCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "auth",
        abstract: "Sign in, sign out, see the session, act as a managed member.",
        subcommands: [LoginCommand.self, LogoutCommand.self, StatusCommand.self, WhoamiCommand.self, ActAsCommand.self]
    )
}
