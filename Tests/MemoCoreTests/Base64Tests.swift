import Foundation
import MemoCore
import XCTest

final class Base64Tests: XCTestCase {
    func testRFC4648Vectors() {
        let vectors = [("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foob", "Zm9vYg=="),
                       ("fooba", "Zm9vYmE="), ("foobar", "Zm9vYmFy")]
        for (plain, encoded) in vectors {
            XCTAssertEqual(Base64.encode(Array(plain.utf8)), encoded)
            XCTAssertEqual(Base64.decode(encoded), Array(plain.utf8))
        }
    }

    func testRandomBytesRoundTripAndMatchFoundation() {
        var generator = SystemRandomNumberGenerator()
        for length in 0..<200 {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let text = Base64.encode(bytes)
            XCTAssertEqual(text, Data(bytes).base64EncodedString())
            XCTAssertEqual(Base64.decode(text), bytes)
        }
    }

    func testNonCanonicalTextIsRefused() {
        for text in ["Zg", "Zg=", "Z===", "Zh==", "Zm9=", "Zm 9v", "Zm9v\n", "Zg==Zg==", "Zm9-", "Zm9_", "====",
                     "=Zg=", "Zm9vYg=a", "é"] {
            XCTAssertNil(Base64.decode(text), text)
        }
    }
}
