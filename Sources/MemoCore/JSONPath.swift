/// Where a value sits in a JSON document, written as in JSONPath:
/// `$`, `$[3].description`, `$.items[0]["odd key"]`. Error messages name it
/// so that a user can find the bad value in a large file.
public struct JSONPath: Hashable, Sendable, CustomStringConvertible {
    /// One step down from a container.
    public enum Step: Hashable, Sendable {
        /// An object's member.
        case key(String)
        /// An array's element, from 0.
        case index(Int)
    }

    /// The steps from the document's top.
    public let steps: [Step]

    /// The document's top, `$`.
    public static let root = JSONPath(steps: [])

    /// A path of the given steps.
    public init(steps: [Step]) {
        self.steps = steps
    }

    /// This path followed by an object member.
    public func appending(key: String) -> JSONPath {
        appending(.key(key))
    }

    /// This path followed by an array element.
    public func appending(index: Int) -> JSONPath {
        appending(.index(index))
    }

    /// This path followed by `step`.
    public func appending(_ step: Step) -> JSONPath {
        var steps = steps
        steps.append(step)
        return JSONPath(steps: steps)
    }

    /// `$[3].description`; a key that is not a plain identifier is quoted
    /// with JSON's escapes: `$["due date"]`.
    public var description: String {
        var text = "$"
        for step in steps {
            switch step {
            case let .index(index):
                text += "[\(index)]"
            case let .key(key) where JSONPath.isPlain(key):
                text += "." + key
            case let .key(key):
                text += "["
                JSON.writeEscaped(key, to: &text)
                text += "]"
            }
        }
        return text
    }

    /// ASCII letters, digits and `_`, not starting with a digit.
    private static func isPlain(_ key: String) -> Bool {
        guard let first = key.utf8.first, !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else {
            return false
        }
        return key.utf8.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "_")
        }
    }
}
