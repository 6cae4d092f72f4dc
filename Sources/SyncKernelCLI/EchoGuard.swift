import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Terminal echo turned off for a secret, and turned back on whatever happens: by
/// `restore()`, or by Ctrl-C, which restores the saved settings and exits 130 (128 + SIGINT).
struct EchoGuard {
    let descriptor: Int32
    let saved: termios
    let previousHandler: sigaction

    /// Turns echo off on `descriptor` and installs the SIGINT handler; nil when the
    /// terminal settings cannot be read (then nothing changed).
    static func silence(_ descriptor: Int32) -> EchoGuard? {
        var original = termios()
        guard tcgetattr(descriptor, &original) == 0 else { return nil }
        InterruptedPrompt.remember(original, descriptor: descriptor)
        var action = sigaction()
        #if canImport(Darwin)
        action.__sigaction_u.__sa_handler = InterruptedPrompt.handle
        #else
        action.__sigaction_handler.sa_handler = InterruptedPrompt.handle
        #endif
        sigemptyset(&action.sa_mask)
        var previous = sigaction()
        sigaction(SIGINT, &action, &previous)
        var silent = original
        silent.c_lflag &= ~tcflag_t(ECHO)
        tcsetattr(descriptor, TCSAFLUSH, &silent)
        return EchoGuard(descriptor: descriptor, saved: original, previousHandler: previous)
    }

    /// Puts the saved settings back and the SIGINT handler that was there before.
    func restore() {
        var saved = saved
        tcsetattr(descriptor, TCSAFLUSH, &saved)
        var previous = previousHandler
        sigaction(SIGINT, &previous, nil)
    }
}

/// What the SIGINT handler needs, kept where a C signal handler can reach it: it cannot
/// capture anything, and it may only call async-signal-safe functions.
private enum InterruptedPrompt {
    nonisolated(unsafe) static var saved = termios()
    nonisolated(unsafe) static var descriptor: Int32 = STDIN_FILENO

    static func remember(_ settings: termios, descriptor: Int32) {
        saved = settings
        Self.descriptor = descriptor
    }

    static let handle: @convention(c) (Int32) -> Void = { _ in
        tcsetattr(InterruptedPrompt.descriptor, TCSANOW, &InterruptedPrompt.saved)
        _ = write(STDERR_FILENO, "\n", 1)
        _exit(130)
    }
}
