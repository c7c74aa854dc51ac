import MemoCore

/// Checks a document against a JSON Schema with the keywords the API's
/// document uses (`type`, one or a list; `enum`; `required`; `properties`
/// with `additionalProperties: false`; `minProperties`; `items`; `anyOf`;
/// `$ref` into the document's schemas; `minimum`, `maximum`). What it
/// answers is the list of problems, each with its path: empty when the
/// document fits.
struct SchemaCheck {
    /// `components.schemas` of the API's document.
    let schemas: [(String, JSON)]

    init(document: JSON) {
        schemas = document["components"]?["schemas"]?.members ?? []
    }

    func problems(_ value: JSON, _ schema: JSON, at path: String = "$") -> [String] {
        if let reference = schema["$ref"]?.text {
            let name = String(reference.split(separator: "/").last ?? "")
            guard let named = schemas.first(where: { $0.0 == name })?.1 else { return ["\(path): no schema \(name)"] }
            return problems(value, named, at: path)
        }
        if let choices = schema["anyOf"]?.elements {
            let fits = choices.contains { problems(value, $0, at: path).isEmpty }
            return fits ? [] : ["\(path): \(value.serialized) fits none of anyOf"]
        }
        var found: [String] = []
        if let types = schema["type"].map({ $0.elements?.compactMap(\.text) ?? [$0.text ?? ""] }),
           !types.contains(where: { Self.isOfType(value, $0) }) {
            return ["\(path): \(value.serialized) is not \(types.joined(separator: " or "))"]
        }
        if let choices = schema["enum"]?.elements, !choices.contains(value) {
            found.append("\(path): \(value.serialized) is not one of \(JSON.array(choices).serialized)")
        }
        if let minimum = schema["minimum"]?.number, let number = value.number, number < minimum {
            found.append("\(path): \(number) < \(minimum)")
        }
        if let maximum = schema["maximum"]?.number, let number = value.number, number > maximum {
            found.append("\(path): \(number) > \(maximum)")
        }
        if case .object(let members) = value {
            let properties = schema["properties"]?.members ?? []
            for name in schema["required"]?.elements?.compactMap(\.text) ?? [] where value[name] == nil {
                found.append("\(path): no \(name)")
            }
            for (name, member) in members {
                if let property = properties.first(where: { $0.0 == name })?.1 {
                    found += problems(member, property, at: path + "." + name)
                } else if schema["additionalProperties"] == .bool(false) {
                    found.append("\(path): \(name) is not in the schema")
                }
            }
        }
        if case .array(let elements) = value, let items = schema["items"] {
            for (index, element) in elements.enumerated() { found += problems(element, items, at: "\(path)[\(index)]") }
        }
        return found
    }

    static func isOfType(_ value: JSON, _ type: String) -> Bool {
        switch (type, value) {
        case ("null", .null), ("boolean", .bool), ("integer", .int), ("number", .int), ("number", .double),
             ("string", .string), ("array", .array), ("object", .object): return true
        default: return false
        }
    }
}

extension JSON {
    subscript(_ key: String) -> JSON? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.0 == key }?.1
    }

    var members: [(String, JSON)]? {
        guard case .object(let members) = self else { return nil }
        return members
    }

    var elements: [JSON]? {
        guard case .array(let elements) = self else { return nil }
        return elements
    }

    var text: String? {
        guard case .string(let text) = self else { return nil }
        return text
    }

    var number: Double? {
        switch self {
        case .int(let value): return Double(value)
        case .double(let value): return value
        default: return nil
        }
    }
}
