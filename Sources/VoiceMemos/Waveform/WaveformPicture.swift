/// An SVG picture of a waveform: one vertical line per pixel column from the
/// column's minimum to its maximum, on a plain background. Browsers open it
/// as it is.
public enum WaveformPicture {
    /// The widths a picture may have, in pixels.
    public static let widths = 1...100_000
    /// The heights a picture may have, in pixels.
    public static let heights = 2...100_000

    /// The SVG document, `width` × `height` (each clamped to its range).
    /// `title` becomes its accessible `<title>`.
    public static func svg(peaks: WaveformPeaks, width: Int, height: Int, title: String) -> String {
        let width = min(max(width, widths.lowerBound), widths.upperBound)
        let height = min(max(height, heights.lowerBound), heights.upperBound)
        let columns = peaks.resampled(toWidth: width)
        let middle = Double(height) / 2
        var path = ""
        path.reserveCapacity(columns.pixelCount * 24)
        for pixel in 0..<columns.pixelCount {
            let top = middle - Double(columns.values[2 * pixel + 1]) / 32768 * middle
            var bottom = middle - Double(columns.values[2 * pixel]) / 32768 * middle
            // Keep silence visible as a hairline.
            if bottom - top < 0.5 { bottom = top + 0.5 }
            path += "M\(pixel).5 \(format(top))V\(format(bottom))"
        }
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <svg xmlns="http://www.w3.org/2000/svg" width="\(width)" height="\(height)" \
            viewBox="0 0 \(width) \(height)">
            <title>\(escape(title))</title>
            <rect width="100%" height="100%" fill="#ffffff"/>
            <line x1="0" y1="\(format(middle))" x2="\(width)" y2="\(format(middle))" stroke="#d0d4da" stroke-width="1"/>
            <path d="\(path)" stroke="#2a6fdb" stroke-width="1" fill="none"/>
            </svg>

            """
    }

    static func format(_ value: Double) -> String {
        let rounded = (value * 100).rounded() / 100
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }

    static func escape(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            default:
                // XML 1.0 forbids most control characters outright.
                if let scalar = character.unicodeScalars.first, character.unicodeScalars.count == 1,
                   scalar.value < 0x20, scalar != "\t", scalar != "\n" {
                    continue
                }
                escaped.append(character)
            }
        }
        return escaped
    }
}
