import Foundation

/// Short, real audio: 16-bit mono PCM WAV sine tones, generated deterministically.
enum WAVTone {
    static let sampleRate = 22_050

    /// A WAV file of a `frequency` Hz tone lasting `seconds`, fading in and out.
    static func make(frequency: Double, seconds: Double) -> Data {
        let count = max(1, Int(Double(sampleRate) * seconds))
        var samples = [UInt8]()
        samples.reserveCapacity(count * 2)
        let fade = Double(min(count / 10, sampleRate / 20))
        for index in 0..<count {
            let envelope = min(1, Double(index) / max(fade, 1), Double(count - index) / max(fade, 1))
            let value = Int16(sin(2 * Double.pi * frequency * Double(index) / Double(sampleRate)) * 12_000 * envelope)
            samples.append(UInt8(truncatingIfNeeded: value))
            samples.append(UInt8(truncatingIfNeeded: value >> 8))
        }
        var data = Data()
        data.append(contentsOf: Array("RIFF".utf8))
        data.append(littleEndian(UInt32(36 + samples.count)))
        data.append(contentsOf: Array("WAVEfmt ".utf8))
        data.append(littleEndian(UInt32(16)))
        data.append(littleEndian(UInt16(1)))  // PCM
        data.append(littleEndian(UInt16(1)))  // mono
        data.append(littleEndian(UInt32(sampleRate)))
        data.append(littleEndian(UInt32(sampleRate * 2)))
        data.append(littleEndian(UInt16(2)))
        data.append(littleEndian(UInt16(16)))
        data.append(contentsOf: Array("data".utf8))
        data.append(littleEndian(UInt32(samples.count)))
        data.append(contentsOf: samples)
        return data
    }

    private static func littleEndian<T: FixedWidthInteger>(_ value: T) -> Data {
        withUnsafeBytes(of: value.littleEndian) { Data($0) }
    }
}
