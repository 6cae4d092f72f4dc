import Foundation
import Testing

@testable import FerryServer

@Suite("Values read the same from either storage engine")
struct SQLValueTests {
    @Test func integersRealsFlagsAndBytesReadTolerantly() {
        #expect(Int(sqlValue: .integer(7)) == 7)
        #expect(Int(sqlValue: .real(7)) == 7)
        #expect(Int(sqlValue: .real(7.5)) == nil)
        #expect(Double(sqlValue: .integer(3)) == 3)
        #expect(Bool(sqlValue: .integer(1)) == true && Bool(sqlValue: .integer(0)) == false)
        #expect(String(sqlValue: .blob(Data("hé".utf8))) == "hé")
        #expect(Data(sqlValue: .text("ab")) == Data("ab".utf8))
        #expect(String(sqlValue: .null) == nil && Int(sqlValue: .text("7")) == nil)
    }

    @Test func aRowIsReadByColumnNameAndNullIsNil() {
        let row = SQLRow(columns: ["id", "deleted", "data"], values: [.text("m1"), .integer(1), .null])
        let id: String = row["id"]
        let deleted: Bool = row["deleted"]
        let data: String? = row["data"]
        let missing: Int? = row["nope"]
        #expect(id == "m1" && deleted && data == nil && missing == nil)
        #expect(row.first == .text("m1"))
    }

    @Test func argumentsBindNilAsNull() {
        let name: String? = nil
        let arguments: SQLArguments = ["a", 1, 2.5, true, name, Data([1])]
        #expect(arguments.values == [.text("a"), .integer(1), .real(2.5), .integer(1), .null, .blob(Data([1]))])
    }
}
