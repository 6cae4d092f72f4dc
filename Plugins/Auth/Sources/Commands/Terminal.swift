import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Questions at the terminal.
enum Terminal {
    static var isInteractive: Bool { isatty(STDIN_FILENO) == 1 }

    /// Asks for a line; nil without a terminal.
    static func ask(_ prompt: String) -> String? {
        guard isInteractive else { return nil }
        FileHandle.standardError.write(Data(prompt.utf8))
        return readLine()?.trimmingCharacters(in: .whitespaces)
    }

    /// Asks for a line without echoing it; nil without a terminal.
    static func askSecret(_ prompt: String) -> String? {
        guard isInteractive else { return nil }
        FileHandle.standardError.write(Data(prompt.utf8))
        var original = termios()
        tcgetattr(STDIN_FILENO, &original)
        var silent = original
        silent.c_lflag &= ~tcflag_t(ECHO)
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &silent)
        defer {
            tcsetattr(STDIN_FILENO, TCSAFLUSH, &original)
            FileHandle.standardError.write(Data("\n".utf8))
        }
        return readLine()
    }
}
