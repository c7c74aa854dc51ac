/// Times within a memo as people write them: seconds (`75`, `12.5`) or
/// minutes and seconds (`1:15`, `1:15.5`, `1:02:03` with hours).
public enum TimeOffset {
    /// Seconds, or nil when `text` is not a time.
    public static func seconds(from text: String) -> Double? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count), parts.allSatisfy({ !$0.isEmpty }) else { return nil }
        guard let last = Double(parts.last!), last.isFinite, last >= 0,
              parts.last!.allSatisfy({ $0.isNumber || $0 == "." }) else { return nil }
        var total = last
        if parts.count > 1 {
            // Seconds under a minute after a colon, as a clock writes them.
            guard last < 60 else { return nil }
            var multiplier = 60.0
            for part in parts.dropLast().reversed() {
                guard part.allSatisfy(\.isNumber), let value = Double(part) else { return nil }
                if multiplier == 60, parts.count == 3, value >= 60 { return nil }
                total += value * multiplier
                multiplier *= 60
            }
        }
        return total
    }

    /// `m:ss`, or `h:mm:ss` from an hour on; whole seconds, rounded down.
    public static func clock(_ seconds: Double) -> String {
        // Int(exactly:) rather than Int(_:), which traps beyond Int.max.
        let whole = seconds.isFinite && seconds > 0 ? Int(exactly: seconds.rounded(.down)) ?? Int.max : 0
        let hours = whole / 3600
        let minutes = (whole % 3600) / 60
        let rest = whole % 60
        let secondsText = rest < 10 ? "0\(rest)" : "\(rest)"
        if hours > 0 {
            return "\(hours):" + (minutes < 10 ? "0\(minutes)" : "\(minutes)") + ":" + secondsText
        }
        return "\(minutes):" + secondsText
    }
}
