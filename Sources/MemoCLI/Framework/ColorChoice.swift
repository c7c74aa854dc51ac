/// `--color=auto|always|never`: whether human text carries memoapp's colour codes.
public enum ColorChoice: String, CaseIterable, Sendable {
    /// Colour on a terminal that shows it, unless the user said no (`NO_COLOR`).
    case auto
    /// Colour wherever stdout goes: for `memoapp todo list --color=always | less -R`.
    case always
    /// No colour (`--no-color` says the same).
    case never

    /// Whether to colour, decided once per invocation. `auto` colours only
    /// when stdout is a terminal, `TERM` is not `dumb` (a terminal without
    /// escape codes: Emacs's shell, some CI logs) and `NO_COLOR` is unset or
    /// empty (no-color.org).
    public func isColorEnabled(isOutputTerminal: Bool, environment: [String: String]) -> Bool {
        switch self {
        case .always: return true
        case .never: return false
        case .auto:
            let isNoColorSet = environment["NO_COLOR"].map { !$0.isEmpty } ?? false
            return isOutputTerminal && environment["TERM"] != "dumb" && !isNoColorSet
        }
    }
}
