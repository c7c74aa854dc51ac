import MemoAPI
import MemoCore
import XCTest

final class ErrorEnvelopeTests: XCTestCase {
    func testTheEnvelopeHoldsTheCodeAndTheMessageUnderError() {
        let document = ErrorEnvelope.json(code: "not_found", message: "no to-do 7")
        XCTAssertEqual(document.serialized, #"{"error":{"code":"not_found","message":"no to-do 7"}}"#)
    }

    func testMessagesAreEscapedAsJSONDoes() {
        let document = ErrorEnvelope.json(code: "bad_input", message: "line \"3\"\n\u{1B}[2J")
        XCTAssertEqual(document.serialized, #"{"error":{"code":"bad_input","message":"line \"3\"\n\u001b[2J"}}"#)
    }
}
