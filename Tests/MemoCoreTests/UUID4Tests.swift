import Foundation
import MemoCore
import XCTest

final class UUID4Tests: XCTestCase {
    func testARandomUUIDHasTheCanonicalLowercaseForm() {
        let uid = UUID4.random()
        XCTAssertEqual(uid.count, 36)
        XCTAssertTrue(UUID4.isWellFormed(uid), uid)
        XCTAssertEqual(uid, uid.lowercased())
        // Foundation reads it back as the same UUID.
        XCTAssertEqual(UUID(uuidString: uid)?.uuidString.lowercased(), uid)
    }

    func testVersionAndVariantBitsAreSet() {
        for _ in 0..<200 {
            let characters = Array(UUID4.random())
            XCTAssertEqual(characters[14], "4", "version 4")
            XCTAssertTrue("89ab".contains(characters[19]), "variant 10xx: \(characters[19])")
        }
    }

    func testTenThousandUUIDsAreAllDifferent() {
        let uids = (0..<10_000).map { _ in UUID4.random() }
        XCTAssertEqual(Set(uids).count, uids.count)
    }

    func testEveryRandomBitChanges() {
        // Over many UUIDs, each of the 122 random bits is seen as 0 and as 1:
        // a generator stuck on a byte (a short read taken for a full one) fails.
        var ones = [Int](repeating: 0, count: 32)
        let count = 400
        for _ in 0..<count {
            let digits = UUID4.random().filter { $0 != "-" }
            for (index, digit) in digits.enumerated() where digit != "0" { ones[index] += 1 }
        }
        for (index, seen) in ones.enumerated() where index != 12 {
            XCTAssertGreaterThan(seen, 0, "hex digit \(index) is always 0")
        }
    }

    func testWellFormedAcceptsAnyVersionInCanonicalForm() {
        XCTAssertTrue(UUID4.isWellFormed("00000000-0000-0000-0000-000000000000"))
        XCTAssertTrue(UUID4.isWellFormed("3f2b8c1e-9d4a-5e6f-b1c2-7a8d9e0f1a2b"))
    }

    func testWellFormedRefusesOtherShapes() {
        for text in ["", "3F2B8C1E-9D4A-4E6F-B1C2-7A8D9E0F1A2B", "3f2b8c1e9d4a4e6fb1c27a8d9e0f1a2b",
                     "3f2b8c1e-9d4a-4e6f-b1c2-7a8d9e0f1a2", "3f2b8c1e-9d4a-4e6f-b1c2-7a8d9e0f1a2bc",
                     "3f2b8c1e-9d4a-4e6f-b1c2_7a8d9e0f1a2b", "{3f2b8c1e-9d4a-4e6f-b1c2-7a8d9e0f1a2}",
                     "3f2b8c1e-9d4a-4e6f-b1c2-7a8d9e0f1a2g", "3f2b8c1e-9d4a-4e6f-b1c2-7a8d9e0f1a2é"] {
            XCTAssertFalse(UUID4.isWellFormed(text), text)
        }
    }
}
