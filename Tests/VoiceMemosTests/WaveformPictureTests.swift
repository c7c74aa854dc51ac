import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import XCTest
@testable import VoiceMemos

final class WaveformPictureTests: XCTestCase {
    /// Collects elements, their attributes and text with Foundation's XML parser.
    private final class Collector: NSObject, XMLParserDelegate {
        var elements: [(name: String, attributes: [String: String])] = []
        var text: [String: String] = [:]
        private var current = ""

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?,
                    qualifiedName: String?, attributes: [String: String] = [:]) {
            elements.append((name, attributes))
            current = name
        }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            current = ""
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            text[current, default: ""] += string
        }
    }

    func testIsWellFormedSVGWithOneSegmentPerColumn() {
        let peaks = WaveformPeaks(samplesPerPixel: 1, frames: 3, values: [-32768, 32767, -16384, 16384, 0, 0])
        let svg = WaveformPicture.svg(peaks: peaks, width: 3, height: 100, title: "a < b & \"c\"\u{1}")
        let parser = XMLParser(data: Data(svg.utf8))
        let collector = Collector()
        parser.delegate = collector
        XCTAssertTrue(parser.parse(), "not well-formed: \(parser.parserError.map { "\($0)" } ?? "")")
        XCTAssertEqual(collector.elements.first?.name, "svg")
        XCTAssertEqual(collector.elements.first?.attributes["width"], "3")
        XCTAssertEqual(collector.elements.first?.attributes["xmlns"], "http://www.w3.org/2000/svg")
        XCTAssertEqual(collector.text["title"], "a < b & \"c\"")
        let d = collector.elements.first { $0.name == "path" }?.attributes["d"] ?? ""
        // Full scale spans the whole height; half scale a quarter to three quarters.
        XCTAssertTrue(d.hasPrefix("M0.5 0V100M1.5 25V75"), d)
        XCTAssertEqual(d.filter { $0 == "M" }.count, 3)
    }
}
