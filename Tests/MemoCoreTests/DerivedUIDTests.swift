import MemoCore
import XCTest

final class DerivedUIDTests: XCTestCase {
    func testSameContentAndNamespaceGiveTheSameUid() {
        let first = DerivedUID.make(namespace: "n", content: Array("회의록 😀".utf8))
        XCTAssertEqual(DerivedUID.make(namespace: "n", content: Array("회의록 😀".utf8)), first)
        XCTAssertEqual(DerivedUID.make(namespace: "n", content: "회의록 😀".utf8), first, "any collection of bytes")
    }

    func testContentAndNamespaceBothChangeTheUid() {
        let base = DerivedUID.make(namespace: "n", content: [1, 2, 3])
        XCTAssertNotEqual(DerivedUID.make(namespace: "n", content: [1, 2, 4]), base)
        XCTAssertNotEqual(DerivedUID.make(namespace: "m", content: [1, 2, 3]), base)
        XCTAssertNotEqual(DerivedUID.make(namespace: "n", content: []), base)
    }

    func testUidIsAVersion8UUIDInCanonicalForm() {
        for content in [[], [0], Array(repeating: UInt8(0xFF), count: 100_000)] as [[UInt8]] {
            let uid = DerivedUID.make(namespace: "n", content: content)
            XCTAssertTrue(UUID4.isWellFormed(uid), uid)
            let characters = Array(uid)
            XCTAssertEqual(characters[14], "8", uid)
            XCTAssertTrue("89ab".contains(characters[19]), uid)
        }
    }

    func testKnownValueDoesNotDrift() {
        // Stored uids must never change between versions: a changed hash would
        // make every earlier import look new. The value was checked against a
        // C program calling libxxhash directly.
        XCTAssertEqual(DerivedUID.make(namespace: "memoapp todo.txt line", content: Array("(A) Call Mom\n0".utf8)),
                       "a9bae793-2c2c-8aa0-b2c2-43010f4121e9")
    }
}
