import Foundation
import SyncKernel
import Testing

@Suite("Transfers: checksums and sizes")
struct TransferSupportTests {
    @Test func sha256MatchesTheStandardVectors() {
        #expect(SHA256Hasher.hex(Data()) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(
            SHA256Hasher.hex(Data("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        )
        let long = Data(String(repeating: "a", count: 1_000_000).utf8)
        #expect(SHA256Hasher.hex(long) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
        var pieces = SHA256Hasher()
        for chunk in stride(from: 0, to: long.count, by: 777) {
            pieces.update(long.subdata(in: chunk..<min(chunk + 777, long.count)))
        }
        #expect(pieces.finalize() == SHA256Hasher.hex(long))
    }

    @Test func byteCountsParseDecimalAndBinaryUnits() {
        #expect(ByteCount.parse("500MB") == 500_000_000)
        #expect(ByteCount.parse("120 GB") == 120_000_000_000)
        #expect(ByteCount.parse("64KiB") == 65_536)
        #expect(ByteCount.parse("2048") == 2048)
        #expect(ByteCount.parse("1.5GB") == 1_500_000_000)
        #expect(ByteCount.parse("-1MB") == nil)
        #expect(ByteCount.parse("lots") == nil)
    }
}
