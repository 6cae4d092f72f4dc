import Foundation
import SyncKernelTesting

extension FerryExecutable.Running {
    /// The lines the process writes to `pipe` (its standard output or error), read on a
    /// thread of its own until one satisfies `done` or the pipe ends; the process is
    /// terminated if it is still running after 60 s.
    func lines(of pipe: Pipe, until done: @escaping @Sendable (String) -> Bool) async -> [String] {
        let process = process
        DispatchQueue.global().asyncAfter(deadline: .now() + 60) { if process.isRunning { process.terminate() } }
        return await onOwnThread {
            var buffer = Data()
            var lines: [String] = []
            while true {
                let chunk = pipe.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                buffer += chunk
                while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                    lines.append(String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self))
                    buffer = Data(buffer[(newline + 1)...])
                }
                if lines.contains(where: done) { break }
            }
            return lines
        }
    }
}
