import Foundation
import SyncKernel

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Questions at the terminal, written to standard error so that standard output stays data.
public enum Prompt {
    /// Whether standard input is a terminal a person can answer on.
    public static var isInteractive: Bool { isatty(STDIN_FILENO) == 1 }

    /// Asks for a line, trimmed; nil without a terminal.
    public static func ask(_ prompt: String) -> String? {
        guard isInteractive else { return nil }
        FileHandle.standardError.write(Data(prompt.utf8))
        return readLine()?.trimmingCharacters(in: .whitespaces)
    }

    /// Asks for a line without echoing it (a password); nil without a terminal.
    ///
    /// While echo is off, Ctrl-C restores the terminal and exits 130 (`EchoGuard`), so an
    /// interrupted prompt never leaves the shell typing blind.
    public static func askSecret(_ prompt: String) -> String? {
        guard isInteractive else { return nil }
        let guardian = EchoGuard.silence(STDIN_FILENO)
        FileHandle.standardError.write(Data(prompt.utf8))
        defer {
            guardian?.restore()
            FileHandle.standardError.write(Data("\n".utf8))
        }
        return readLine()
    }

    /// Asks a yes/no question; `assumeYes` answers it. Without a terminal and without
    /// `assumeYes`, the answer is no.
    public static func confirm(_ question: String, assumeYes: Bool) -> Bool {
        if assumeYes { return true }
        guard let answer = ask("\(question) [y/N] ") else {
            Output.warn("\(question) [y/N] no (not a terminal; pass --yes to confirm)")
            return false
        }
        return ["y", "yes"].contains(answer.lowercased())
    }

    /// Asks a yes/no question whose plain Enter (or an answer that is neither yes nor no)
    /// means `byDefault`: `[Y/n]` when that is yes, `[y/N]` when no, `[y/n]` when nil (the
    /// caller decides nothing then). Nil without a terminal. For questions where one answer
    /// deletes data, the default is the answer that keeps it.
    public static func decide(_ question: String, byDefault: Bool?) -> Bool? {
        let choices = byDefault.map { $0 ? "[Y/n]" : "[y/N]" } ?? "[y/n]"
        guard let answer = ask("\(question) \(choices) ")?.lowercased() else { return nil }
        if ["y", "yes"].contains(answer) { return true }
        if ["n", "no"].contains(answer) { return false }
        return byDefault
    }

    /// Asks a yes/no question and stops the command when the answer is no, with one exit
    /// status for every command (64, a usage error): `unchanged` says what did not happen,
    /// and the message adds how `--yes` answers.
    public static func confirmOrStop(_ question: String, assumeYes: Bool, unchanged: String) throws {
        guard confirm(question, assumeYes: assumeYes) else {
            throw FerryError(.usage, "\(unchanged); pass --yes to go ahead without asking")
        }
    }
}
