/// A key of the interactive pager, decoded from the terminal's bytes.
public enum OnboardingKey: Equatable, Sendable {
    case character(Character)
    case rightArrow
    case leftArrow
    case enter
    /// Home, End, PageUp, PageDown: the first page, the last, back, on.
    case home
    case end
    case pageUp
    case pageDown
    case interrupt
    case other
}

/// What a key press means in the pager: an action on the flow, or leaving.
public enum OnboardingCommand: Equatable, Sendable {
    case act(OnboardingAction)
    /// Leave the pager, keeping the page (q, Escape, Ctrl-C).
    case quit
    /// A key with no meaning here.
    case ignore

    /// The meaning of `key` on the flow's current page. Enter presses the button
    /// the page shows: Next on pages before the last, Start on the last.
    public init(key: OnboardingKey, flow: OnboardingFlow) {
        switch key {
        case .rightArrow: self = .act(.next)
        case .leftArrow: self = .act(.previous)
        case .enter: self = .act(flow.isOnLastPage ? .start : .next)
        case .home: self = .act(.goTo(1))
        case .end: self = .act(.goTo(flow.pageCount))
        case .pageUp: self = .act(.previous)
        case .pageDown: self = .act(.next)
        case .interrupt: self = .quit
        case .other: self = .ignore
        case let .character(character):
            switch character {
            case "l", "n", " ": self = .act(.next)
            case "h", "p": self = .act(.previous)
            case "s": self = .act(.skip)
            case "q": self = .quit
            default:
                if let digit = character.wholeNumberValue, character.isASCII, (1...flow.pageCount).contains(digit) {
                    self = .act(.goTo(digit))
                } else {
                    self = .ignore
                }
            }
        }
    }
}
