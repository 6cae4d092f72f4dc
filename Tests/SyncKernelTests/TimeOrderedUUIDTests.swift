import Foundation
import Testing

@testable import SyncKernel

@Suite("Operation ids are time-ordered UUIDs")
struct TimeOrderedUUIDTests {
    @Test func carriesVersionSevenAndTheRFCVariant() {
        let text = UUID.timeOrdered(at: Date()).uuidString.lowercased()
        let characters = Array(text)
        #expect(characters[14] == "7")
        #expect("89ab".contains(characters[19]))
    }

    @Test func startsWithTheMillisecondsSinceTheEpoch() {
        let date = Date(timeIntervalSince1970: 1_763_800_000.123)
        let text = UUID.timeOrdered(at: date).uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        #expect(UInt64(text.prefix(12), radix: 16) == 1_763_800_000_123)
    }

    @Test func sortsInTheOrderOfTheirTimesAsStoredText() {
        let start = Date(timeIntervalSince1970: 1_763_800_000)
        let ids = (0..<200).map { UUID.timeOrdered(at: start.addingTimeInterval(Double($0) * 0.002)) }
        let texts = ids.map { $0.uuidString.lowercased() }
        #expect(texts == texts.sorted())
        #expect(Set(ids).count == ids.count)
    }

    @Test func lowercasedTextIsTheCanonicalFormInLowerCase() {
        let ids =
            [UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)), UUID()]
            + (0..<100).map { _ in UUID.timeOrdered(at: Date()) }
        for id in ids {
            #expect(id.lowercasedString == id.uuidString.lowercased())
            #expect(UUID(uuidString: id.lowercasedString) == id)
        }
    }

    @Test func manyIdsInOneMillisecondAreAllDifferentInTheirRandomBits() {
        let date = Date(timeIntervalSince1970: 1_763_800_000)
        let ids = (0..<10_000).map { _ in UUID.timeOrdered(at: date).lowercasedString }
        #expect(Set(ids).count == ids.count)
        #expect(Set(ids.map { $0.suffix(12) }).count == ids.count)
    }
}
